"""The Goals page: a month's goals of the workspace and of each member, as a table of
members by metrics, set by owners, admins and managers through the goals' one writer
(workspaces.services.goals_replace), with last month's goals to start from."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse

from accounts.pages import request_actor
from core.money import MoneyInvalid, major_from_minor, minor_from_major
from figures import selectors as figures_selectors
from figures.registry import metric_label
from workspaces.access import page
from workspaces.models import Goal, Member
from workspaces.services import RecordInvalid, goals_replace, month_parse
from workspaces.services.goals import GOAL_METRICS, GOAL_ROLES, MONEY_METRICS
from workspaces.shapes import goal_order_key, month_text

from .pages import page_membership, page_nav

WORKSPACE_ROW = "workspace"


def _month_of(workspace, raw) -> object:
    return month_parse(raw) if raw else figures_selectors.this_month(workspace)


def _previous(first_day):
    return (first_day - timedelta(days=1)).replace(day=1)


def _rows(workspace, goals: list[Goal]) -> list[dict]:
    """The table's rows: the whole workspace, then the active closers, setters and SDRs and
    anyone else holding a goal of the month, by name."""
    holding = {goal.member_id for goal in goals if goal.member_id}
    members = Member.objects.filter(workspace=workspace).order_by("name", "pk")
    listed = [
        m for m in members if (m.is_active and m.role in Member.REPORTING_ROLES) or m.pk in holding
    ]
    return [{"key": WORKSPACE_ROW, "name": "The whole workspace", "member": None}] + [
        {"key": str(m.pk), "name": m.name, "member": m, "role": m.role} for m in listed
    ]


def _cell_name(row_key: str, metric: str) -> str:
    return f"target-{row_key}-{metric}"


def _shown(workspace, goal: Goal) -> str:
    if goal.metric in MONEY_METRICS:
        return str(major_from_minor(goal.target, exponent=workspace.currency_exponent))
    return str(goal.target)


def _read(workspace, rows, post) -> tuple[list[dict], dict]:
    """The goals the form holds and the refusals, by cell name."""
    goals, errors = [], {}
    for row in rows:
        for metric in GOAL_METRICS:
            name = _cell_name(row["key"], metric)
            text = (post.get(name) or "").strip().replace(",", "")
            if not text:
                continue
            if metric in MONEY_METRICS:
                try:
                    target = minor_from_major(text, exponent=workspace.currency_exponent)
                except MoneyInvalid:
                    errors[name] = (
                        f"Write an amount of zero or more in {workspace.currency}, like 15000."
                    )
                    continue
            elif text.isdigit():
                target = int(text)
            else:
                errors[name] = "Write a whole number of zero or more, like 20."
                continue
            goals.append({"metric": metric, "member": row["member"], "target": target})
    return goals, errors


@page
def goals_page(request, workspace_id):
    workspace, member = page_membership(
        request, workspace_id, roles=GOAL_ROLES, doing="set the goals"
    )
    source = request.POST if request.method == "POST" else request.GET
    first_day = _month_of(workspace, source.get("month"))
    if first_day is None:
        messages.error(request, "That is not a month: pick one from the list.")
        return redirect(reverse("dashboard-goals", args=[workspace.pk]))
    held = sorted(
        Goal.objects.filter(workspace=workspace, month=first_day).select_related("member"),
        key=goal_order_key,
    )
    rows = _rows(workspace, held)
    errors: dict = {}
    copied = request.method == "GET" and source.get("copy") == "last"
    shown_goals = held
    if copied:
        shown_goals = list(
            Goal.objects.filter(workspace=workspace, month=_previous(first_day)).select_related(
                "member"
            )
        )
        rows = _rows(workspace, shown_goals + held)
    values = {
        _cell_name(str(goal.member_id) if goal.member_id else WORKSPACE_ROW, goal.metric): _shown(
            workspace, goal
        )
        for goal in shown_goals
    }
    if request.method == "POST":
        values = {key: request.POST.get(key, "") for key in request.POST}
        goals, errors = _read(workspace, rows, request.POST)
        if not errors:
            try:
                saved = goals_replace(
                    workspace=workspace,
                    month=first_day,
                    goals=goals,
                    actor=request_actor(request),
                    by_role=member.role,
                )
            except RecordInvalid as error:
                errors["form"] = error.message
            else:
                messages.success(
                    request,
                    f"The goals of {first_day:%B %Y} are saved: {len(saved)} "
                    f"goal{'s' if len(saved) != 1 else ''}.",
                )
                return redirect(
                    reverse("dashboard-goals", args=[workspace.pk])
                    + f"?month={month_text(first_day)}"
                )
    this_month = figures_selectors.this_month(workspace)
    months = [this_month]
    for _ in range(3):
        months.insert(0, _previous(months[0]))
    months += [(months[-1] + timedelta(days=32)).replace(day=1)]
    months.append((months[-1] + timedelta(days=32)).replace(day=1))
    if first_day not in months:
        months.append(first_day)
    table = [
        {
            **row,
            "cells": [
                {
                    "name": _cell_name(row["key"], metric),
                    "value": values.get(_cell_name(row["key"], metric), ""),
                    "error": errors.get(_cell_name(row["key"], metric)),
                    "label": f"{metric_label(metric, workspace)} of {row['name']}",
                    "money": metric in MONEY_METRICS,
                }
                for metric in GOAL_METRICS
            ],
        }
        for row in rows
    ]
    context = {
        **page_nav(workspace, member),
        "section": "goals",
        "month": first_day,
        "month_value": month_text(first_day),
        "months": [{"value": month_text(m), "day": m} for m in months],
        "metrics": [
            {
                "id": metric,
                "label": metric_label(metric, workspace),
                "money": metric in MONEY_METRICS,
            }
            for metric in GOAL_METRICS
        ],
        "table": table,
        "errors": errors,
        "copied": copied,
        "previous": _previous(first_day),
    }
    return render(request, "dashboard/goals.html", context, status=400 if errors else 200)
