from django.apps import AppConfig


class PrintingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "printing"

    def ready(self) -> None:
        from printing.registry import SOURCES
        from printing.sources import BLANK_SCORESHEETS, GAME_SCORESHEETS

        SOURCES.register(BLANK_SCORESHEETS)
        SOURCES.register(GAME_SCORESHEETS)
        # The tasks are sent by name (printing.dispatch): every process registers them.
        import printing.tasks  # noqa: F401
