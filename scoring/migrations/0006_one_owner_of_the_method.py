"""Which games count was stored twice: ``Tournament.format`` and ``ScoringSettings.method``
(which won when set). The tournament's field is now the one owner: a settings row's method is
copied onto its tournament, then the copy goes. Undone, the method comes back empty, which
meant "the tournament's", so the standings read the same either way."""

from django.db import migrations

METHODS = ("rtu", "italiana", "knockout")


def method_to_tournament(apps, schema_editor):
    settings = apps.get_model("scoring", "ScoringSettings")
    tournament = apps.get_model("tournaments", "Tournament")
    rows = settings.objects.exclude(method="").values_list("tournament_id", "method")
    for tournament_id, method in rows.iterator():
        if method in METHODS:
            tournament.objects.filter(pk=tournament_id).exclude(format=method).update(format=method)


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0005_scores_exact_decimals"),
        ("tournaments", "0016_idempotent_writes"),
    ]

    operations = [
        migrations.RunPython(method_to_tournament, migrations.RunPython.noop),
        migrations.RemoveField(model_name="scoringsettings", name="method"),
    ]
