"""Objective cards get their own secret seed with a public commitment (commit-reveal).

The old ``objectives_seed`` was derived from the game's deal seed and shown by the public API;
it becomes ``secret_seed`` (no longer published while the game runs) and every game that has one
gets its SHA-256 ``secret_commitment``, so running games keep their dealt cards and can be
checked once they finish."""

import hashlib

from django.db import migrations, models


def commit(apps, schema_editor):
    Game = apps.get_model("tables", "Game")
    for game in Game.objects.exclude(secret_seed="").only("pk", "secret_seed"):
        digest = hashlib.sha256(game.secret_seed.encode()).hexdigest()
        Game.objects.filter(pk=game.pk).update(secret_commitment=digest)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0002_clocks_turns_objectives"),
    ]

    operations = [
        migrations.RenameField("game", "objectives_seed", "secret_seed"),
        migrations.AddField(
            model_name="game",
            name="secret_commitment",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.RunPython(commit, migrations.RunPython.noop),
    ]
