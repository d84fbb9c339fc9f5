"""The project's own date formats, by language (settings.FORMAT_MODULE_PATH): the pages ask
for a named format ("DATE_FORMAT", "MONTH_DAY_FORMAT") and each language says it its way;
anything not set here is Django's own for that language."""
