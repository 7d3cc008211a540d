"""The demo, on the top floor: fictional cases in every state of every bounded context, each
walked through the same services the pages use (`manage.py demo_data`)."""
