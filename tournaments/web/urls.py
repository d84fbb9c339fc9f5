"""Every address of the tournaments app, in one namespace: the director's under /desk/,
the players' under /e/<public token>/, a player's own under /me/<private token>/, and
the old addresses redirecting to them."""

from tournaments.web import moved
from tournaments.web.desk import urls as desk
from tournaments.web.me import urls as me
from tournaments.web.public import urls as public

app_name = "tournaments"
urlpatterns = [*desk.urlpatterns, *public.urlpatterns, *me.urlpatterns, *moved.urlpatterns]
