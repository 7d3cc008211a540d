"""Forms of the DPW's Article I pages: they check the shape of what was typed; the services
check it against the law.
"""
