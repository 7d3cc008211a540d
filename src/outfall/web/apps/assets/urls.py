"""URLs of the storm drain system, mounted at /dpw/assets/ (namespace `assets`)."""

from django.urls import path

from outfall.web.apps.assets import views

app_name = "assets"

S, C = "screening/", "catchments/"
urlpatterns = [
    path("", views.inventory, name="inventory"),
    path("new/", views.asset_new, name="new"),
    path("<int:pk>/", views.asset_detail, name="detail"),
    path("map/", views.asset_map, name="map"),
    path("map/assets.geojson", views.map_assets, name="map_assets"),
    path("export.geojson", views.asset_export, name="export"),
    path("import/", views.asset_import, name="import"),
    path(S, views.screening, name="screening"),
    path(S + "rounds/new/", views.round_new, name="round_new"),
    path(S + "rounds/<int:pk>/", views.round_detail, name="round"),
    path(S + "rounds/<int:pk>/visits/new/", views.round_visit_new, name="round_visit_new"),
    path(S + "visits/new/", views.visit_new, name="visit_new"),
    path(S + "visits/<int:pk>/", views.visit_detail, name="visit"),
    path(S + "visits/<int:pk>/photo/", views.visit_photo, name="visit_photo"),
    path(S + "visits/<int:visit_pk>/investigate/", views.catchment_open, name="catchment_open"),
    path(S + "thresholds/<str:parameter>/", views.threshold_edit, name="threshold_edit"),
    path(S + "settings/<str:key>/", views.setting_edit, name="setting_edit"),
    path(C, views.catchments, name="catchments"),
    path(C + "<int:pk>/", views.catchment_detail, name="catchment"),
    # The steps on one record, each declared once in the views.
    *views.ASSET.urls("<int:pk>/", views.EDIT),
    *views.ASSET.urls("<int:pk>/", views.CLEANING),
    *views.VISIT.urls(S + "visits/<int:pk>/", views.SAMPLE),
    *views.CATCHMENT.urls(C + "<int:pk>/", views.CATCHMENT_STEPS),
]
