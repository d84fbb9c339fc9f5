from scoring.web import urls as web_urls  # registers the table_token converter

app_name = "scoring"
urlpatterns = [*web_urls.urlpatterns]
