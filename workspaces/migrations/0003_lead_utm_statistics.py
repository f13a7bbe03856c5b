from django.db import migrations

STATISTICS = "lead_utm_ndistinct"


def create(apps, schema_editor):
    # PostgreSQL estimates the UTM combinations as if the four tags were independent
    # (tens of thousands of groups where accounts have a few hundred), and sorts the
    # period's leads on disk instead of hashing them. Extended statistics tell it.
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        f"CREATE STATISTICS IF NOT EXISTS {STATISTICS} (ndistinct) "
        "ON utm_source, utm_medium, utm_campaign, utm_content FROM workspaces_lead"
    )
    schema_editor.execute("ANALYZE workspaces_lead")


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP STATISTICS IF EXISTS {STATISTICS}")


class Migration(migrations.Migration):
    dependencies = [("workspaces", "0002_lead_sales_funnel_progress")]

    operations = [migrations.RunPython(create, drop)]
