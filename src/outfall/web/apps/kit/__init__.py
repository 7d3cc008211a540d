"""The shared web kit, on the ground floor: what every bounded context's pages and services do
the same way, done once.

- `forms`: the accessible form base and a service's InputError put on its field;
- `steps`: the one step controller (form → one service call → success, or the page again with
  every reason the law gives, each with its section);
- `refusals`: the one shape of a service's refusal (the lifecycle's TransitionNotAllowed, or
  `Refused`): every reason with its section;
- `locks`: the one row lock;
- `writes`: the one shape of an audited write — the row locked for the transaction
  (`write_lock`), the changed fields saved (`save_fields`), the audit row filed in its case's
  town (`audit`);
- `documents`: the one PDF renderer and the one way a PDF is filed (`render_pdf`, `pdf_of`,
  `file_pdf`; a service's documents through the worker with `file_pdf_later`);
- `mail`: the one way a service sends mail, through the outbox (`mail_on_commit`,
  `stored_attachment`);
- `tags`: the case page's panel tags (`register_panel`, `request_user`);
- `snapshots`: the one shape of a stored determination — `determination_snapshot`, the
  `DeterminationField` a record keeps one in, the `DeterminationSnapshot` table shape;
- `clocks`: the one clock type every case type's clocks use (`CaseClock`);
- `api`: the JSON API's page, town, reasons, steps and refusal answers;
- `selectors`: a record of what the reader may see, or a 404 (`row_or_404`, `found`);
- `credentials`: the audit row of a person's own token or calendar address;
- `pdfs`: an uploaded PDF opened and its pages counted, not only sniffed (`pdf_checked`);
- `commands`: the daily commands' `--date`;
- templates `kit/step.html`, `kit/_refusal.html`, `kit/_field.html` (pages) and
  `kit/document.html` with `kit/document.css` (the printed-document base).

The kit imports no other web app but `core`, `audit` and `jobs` (the queue its mail and
documents go through).
"""
