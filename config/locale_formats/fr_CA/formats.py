# "27 novembre 2026", "27 novembre": the dates of French Canada (Django's fr_CA gives the
# rest: numbers "1 234,5", times "14 h 05" in its own formats, 24-hour "H:i" on the pages).
DATE_FORMAT = "j F Y"
MONTH_DAY_FORMAT = "j F"
