"""Count the queries of each request the bench makes (answer header `X-Bench-Queries`)."""

from __future__ import annotations

from django.db import connection


class QueryCount:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        count = [0]

        def counted(execute, sql, params, many, context):
            count[0] += 1
            return execute(sql, params, many, context)

        with connection.execute_wrapper(counted):
            response = self.get_response(request)
            if getattr(response, "streaming", False):
                return response
        response["X-Bench-Queries"] = str(count[0])
        return response
