"""Pages of the DPW's Article I records; each module exports `urlpatterns`."""
