from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from printing.registry import SOURCES
        from tournaments.brackets.sheet import BRACKET_SHEETS
        from tournaments.printouts.sources import SOURCES as PRINTOUTS

        for source in (*PRINTOUTS, BRACKET_SHEETS):
            SOURCES.register(source)
