from django.urls import path

from outfall.web.apps.regulations import views

app_name = "regulations"

urlpatterns = [
    path("", views.regulation_list, name="list"),
    path("in-force/", views.public_list, name="public"),
    path("data/", views.data_list, name="data"),
    path("data/confirm/", views.data_confirm, name="data_confirm"),
    path("new/", views.NEW.page(views.DRAFT), name="new"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/notice.pdf", views.notice_pdf, name="notice_pdf"),
    *views.REGULATION.urls("<int:pk>/", views.STEPS),
]
