"""Background work on a real queue (issue 10), on the ground floor under the kit.

A job is a row (`Job`) written in the same transaction as the record that asked for it, with
the library's task row beside it (django-tasks with its database backend): the outbox. Both
commit or roll back with the record. `manage.py db_worker` runs them: each try is counted, a
failure is tried again after a doubling wait, and after the last try the job is failed and shown
to the town's administrators with its error and a Retry button (audited).

- `work`: the `@work` mark a function needs before a job may run it, and `FailNow`;
- `services`: `job_enqueue`, `job_run` (what the worker calls), `job_finish`, `job_retry`,
  `jobs_recover_abandoned` (a killed worker's job is run again);
- `selectors`: the jobs a person may see;
- `record_check`: a town's audit record verified on demand, as a job;
- views: a job's status as a small fragment the page polls (htmx), the administrators' list, and
  their "Verify now" of the town's audit record.

It imports no web app but `core` and `audit`; the work it runs is named by its dotted path.
"""
