from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from printing.registry import SOURCES
        from tournaments.printouts import SOURCES as PRINTOUTS

        for source in PRINTOUTS:
            SOURCES.register(source)
