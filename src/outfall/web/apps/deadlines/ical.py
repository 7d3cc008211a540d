"""A person's open clocks as an iCalendar feed: one all-day event per clock, stable UIDs."""

from __future__ import annotations

import datetime as dt

from icalendar import Calendar, Event


def clocks_as_icalendar(clocks, *, name: str, absolute_url, stamp: dt.datetime) -> bytes:
    """RFC 5545 calendar of `clocks` of any source; `absolute_url(path)` completes each case's
    address (`clock.case_url`).

    The UID is built from the case and the clock (not the date), so a calendar app updates the
    event in place when a date moves.
    """
    cal = Calendar()
    cal.add("prodid", "-//outfall//stormwater permit deadlines//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", name)
    for clock in clocks:
        event = Event()
        event.add("uid", clock.uid)
        event.add("dtstamp", stamp)
        event.add("dtstart", clock.due)
        event.add("dtend", clock.due + dt.timedelta(days=1))
        event.add("summary", f"{clock.case_number}: {clock.label} ({clock.citation})")
        lines = [f"{clock.explanation}.", f"Section: {clock.citation}."]
        if clock.due != clock.raw_due:
            lines.append(
                f"Raw date {clock.raw_due.isoformat()}, moved to {clock.due.isoformat()}: "
                f"{clock.moved_because}."
            )
        place = getattr(clock, "case_place", "")
        lines.append(
            f"Case: {clock.case_number} {clock.case_title}{', ' + place if place else ''}."
        )
        event.add("description", "\n".join(lines))
        event.add("url", absolute_url(clock.case_url))
        event.add("categories", [clock.key])
        cal.add_component(event)
    return cal.to_ical()
