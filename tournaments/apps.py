from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from printing.registry import SOURCES
        from tournaments.brackets.sheet import BRACKET_SHEETS
        from tournaments.printouts.passes import SOURCES as PASSES
        from tournaments.printouts.sources import SOURCES as PRINTOUTS
        from tournaments.web.desk.access import shorten_director_session

        for source in (*PRINTOUTS, *PASSES, BRACKET_SHEETS):
            SOURCES.register(source)

        user_logged_in.connect(shorten_director_session, dispatch_uid="director_session")
