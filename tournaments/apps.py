from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from printing.registry import SOURCES
        from tournaments.bracket_sheet import BRACKET_SHEETS
        from tournaments.printouts import SOURCES as PRINTOUTS

        for source in (*PRINTOUTS, BRACKET_SHEETS):
            SOURCES.register(source)
