"""URLs of the storm drain system, mounted at /dpw/assets/ (namespace `assets`)."""

from django.urls import path

from outfall.web.apps.assets import views

app_name = "assets"

urlpatterns = [
    path("", views.inventory, name="inventory"),
    path("new/", views.asset_new, name="new"),
    path("<int:pk>/", views.asset_detail, name="detail"),
    path("<int:pk>/edit/", views.asset_edit, name="edit"),
    path("map/", views.asset_map, name="map"),
    path("map/assets.geojson", views.map_assets, name="map_assets"),
    path("export.geojson", views.asset_export, name="export"),
    path("import/", views.asset_import, name="import"),
    path("screening/", views.screening, name="screening"),
    path("screening/rounds/new/", views.round_new, name="round_new"),
    path("screening/rounds/<int:pk>/", views.round_detail, name="round"),
    path("screening/rounds/<int:pk>/visits/new/", views.round_visit_new, name="round_visit_new"),
    path("screening/visits/new/", views.visit_new, name="visit_new"),
    path("screening/visits/<int:pk>/", views.visit_detail, name="visit"),
    path("screening/visits/<int:pk>/results/new/", views.sample_new, name="sample_new"),
    path(
        "screening/visits/<int:visit_pk>/investigate/",
        views.catchment_open,
        name="catchment_open",
    ),
    path("screening/thresholds/<str:parameter>/", views.threshold_edit, name="threshold_edit"),
    path("screening/settings/<str:key>/", views.setting_edit, name="setting_edit"),
    path("catchments/", views.catchments, name="catchments"),
    path("catchments/<int:pk>/", views.catchment_detail, name="catchment"),
    path("catchments/<int:pk>/findings/", views.catchment_findings, name="catchment_findings"),
    path("catchments/<int:pk>/close/", views.catchment_close, name="catchment_close"),
]
