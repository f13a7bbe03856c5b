from django.urls import path

from . import goals, lists, pages, tables

urlpatterns = [
    path("app/<uuid:workspace_id>/", pages.overview, name="dashboard-overview"),
    path("app/<uuid:workspace_id>/board/", pages.board, name="dashboard-board"),
    path("app/<uuid:workspace_id>/goals/", goals.goals_page, name="dashboard-goals"),
    path("app/<uuid:workspace_id>/acquisition/", pages.acquisition, name="dashboard-acquisition"),
    path("app/leads/<uuid:lead_id>", pages.lead, name="dashboard-lead"),
    path("app/<uuid:workspace_id>/calls/", lists.calls_list, name="dashboard-calls"),
    path("app/<uuid:workspace_id>/leads/", lists.leads_list, name="dashboard-leads"),
    path("app/<uuid:workspace_id>/payments/", lists.payments_list, name="dashboard-payments"),
    path("app/<uuid:workspace_id>/refunds/", lists.refunds_list, name="dashboard-refunds"),
    path("app/<uuid:workspace_id>/sales/", lists.sales_list, name="dashboard-sales"),
    path("app/<uuid:workspace_id>/eod-reports/", lists.eod_list, name="dashboard-eod"),
    path("app/<uuid:workspace_id>/spend/", lists.spend_list, name="dashboard-spend"),
    path(
        "app/<uuid:workspace_id>/tables/<slug:table>/",
        tables.table_export,
        name="dashboard-table",
    ),
]
