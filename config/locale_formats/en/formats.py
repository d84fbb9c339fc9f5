# "27 Nov 2026", "27 Nov": the pages' dates as they read in English.
DATE_FORMAT = "j M Y"
MONTH_DAY_FORMAT = "j M"
