from outfall.web.apps.ms4 import pages, views

app_name = views.app_name
urlpatterns = [*views.urlpatterns, *pages.urlpatterns]
