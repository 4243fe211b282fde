"""Personal data per registration; a player's name + club is no longer unique.

Each registration gets the e-mail, date of birth and national id as entered for it. Existing
rows are filled from the player record only where it was entered by the same people: the
registrations in tournaments sharing an organizer with the tournament the player was first
registered in. Registrations elsewhere (a player reused by another organizer) stay blank."""

from django.db import migrations, models


def copy_owned(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    Registration = apps.get_model("tournaments", "Registration")
    TournamentRole = apps.get_model("tournaments", "TournamentRole")
    organizers: dict[int, set[int]] = {}
    for tid, uid in TournamentRole.objects.filter(role="organizer").values_list("tournament_id",
                                                                                "user_id"):
        organizers.setdefault(tid, set()).add(uid)
    for player in Player.objects.exclude(email="", birth_date=None, national_id="").iterator():
        regs = list(Registration.objects.filter(player=player).order_by("created_at", "pk"))
        if not regs:
            continue
        owners = organizers.get(regs[0].tournament_id, set())
        same = [r.pk for r in regs
                if r.pk == regs[0].pk or organizers.get(r.tournament_id, set()) & owners]
        Registration.objects.filter(pk__in=same).update(
            email=player.email, birth_date=player.birth_date, national_id=player.national_id)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0004_tournament_club"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration", name="email",
            field=models.EmailField(blank=True, max_length=254, verbose_name="e-mail"),
        ),
        migrations.AddField(
            model_name="registration", name="birth_date",
            field=models.DateField(blank=True, null=True, verbose_name="date of birth"),
        ),
        migrations.AddField(
            model_name="registration", name="national_id",
            field=models.CharField(blank=True, default="", max_length=32, verbose_name="national id"),
        ),
        migrations.RemoveConstraint(model_name="player", name="player_unique_name_per_club"),
        migrations.RunPython(copy_owned, migrations.RunPython.noop),
    ]
