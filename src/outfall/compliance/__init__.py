"""Where law meets engineering: site review and case lifecycles."""
