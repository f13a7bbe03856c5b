from django.urls import path

from . import pages, records

urlpatterns = [
    path("app/<uuid:workspace_id>/", pages.overview, name="dashboard-overview"),
    path("app/<uuid:workspace_id>/board/", pages.board, name="dashboard-board"),
    path("app/leads/<uuid:lead_id>", pages.lead, name="dashboard-lead"),
    path("app/<uuid:workspace_id>/calls/", records.calls_list, name="dashboard-calls"),
    path("app/<uuid:workspace_id>/leads/", records.leads_list, name="dashboard-leads"),
]
