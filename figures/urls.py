from django.urls import path

from . import views

urlpatterns = [
    path("whoami", views.WhoamiView.as_view(), name="whoami"),
    path("calls", views.CallsView.as_view(), name="figures-calls"),
    path("outcomes", views.OutcomesView.as_view(), name="figures-outcomes"),
    path("payments", views.PaymentsView.as_view(), name="figures-payments"),
    path("leads", views.LeadsView.as_view(), name="figures-leads"),
    path("leads/<str:id>/journey", views.LeadJourneyView.as_view(), name="figures-journey"),
    path("speed-to-lead", views.SpeedToLeadView.as_view(), name="figures-speed-to-lead"),
    path("eod", views.EodView.as_view(), name="figures-eod"),
    path("attribution", views.AttributionView.as_view(), name="figures-attribution"),
    path("acquisition", views.AcquisitionView.as_view(), name="figures-acquisition"),
    path("commission", views.CommissionView.as_view(), name="figures-commission"),
    path("funnel", views.FunnelView.as_view(), name="figures-funnel"),
    path("webinar", views.WebinarView.as_view(), name="figures-webinar"),
    path("goals", views.GoalsView.as_view(), name="figures-goals"),
    path("leaderboard", views.LeaderboardView.as_view(), name="figures-leaderboard"),
    path("series", views.SeriesView.as_view(), name="figures-series"),
    path("audit-events", views.AuditEventsView.as_view(), name="figures-audit-events"),
]
