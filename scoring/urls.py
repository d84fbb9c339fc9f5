from scoring.web import rules_urls
from scoring.web import urls as web_urls  # registers the table_token converter

app_name = "scoring"
urlpatterns = [*web_urls.urlpatterns, *rules_urls.urlpatterns]
