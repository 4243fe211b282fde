from django.db import migrations, models
from django.utils import timezone

WITHDRAWN = "withdrawn"
PLACE_STATUSES = ("registered", "waitlisted")


def _status_before(AuditEntry, registration):
    """The status the registration had when it withdrew (its last "registration.withdraw" audit
    entry); registered when nothing says otherwise."""
    entry = (AuditEntry.objects.filter(action="registration.withdraw", object_type="tournaments.Registration",
                                       object_id=str(registration.pk)).order_by("-at", "-pk").first())
    before = entry.before if entry is not None and isinstance(entry.before, dict) else {}
    status = before.get("status")
    return status if status in PLACE_STATUSES else "registered"


def open_withdrawals_from_statuses(apps, schema_editor):
    """Every WITHDRAWN registration keeps (or gets) its open withdrawal and takes back the status
    it had before withdrawing; a withdrawal left open on a registration that was not WITHDRAWN
    did not count, so it is closed (the open withdrawal is now what counts)."""
    Registration = apps.get_model("tournaments", "Registration")
    Withdrawal = apps.get_model("tournaments", "Withdrawal")
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    now = timezone.now()
    (Withdrawal.objects.filter(reinstated_at__isnull=True).exclude(registration__status=WITHDRAWN)
     .update(reinstated_at=now))
    for registration in Registration.objects.filter(status=WITHDRAWN).iterator():
        if not Withdrawal.objects.filter(registration=registration, reinstated_at__isnull=True).exists():
            Withdrawal.objects.create(registration=registration, from_game=None,
                                      withdrawn_at=registration.created_at)
        registration.status = _status_before(AuditEntry, registration)
        registration.save(update_fields=["status"])


def statuses_from_open_withdrawals(apps, schema_editor):
    """Back: a registration with a withdrawal in force is WITHDRAWN again; its withdrawals stay."""
    Registration = apps.get_model("tournaments", "Registration")
    Withdrawal = apps.get_model("tournaments", "Withdrawal")
    open_ones = Withdrawal.objects.filter(reinstated_at__isnull=True).values("registration_id")
    Registration.objects.filter(pk__in=open_ones).update(status=WITHDRAWN)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0014_withdrawals_have_their_own_model'),
    ]

    operations = [
        migrations.RunPython(open_withdrawals_from_statuses, statuses_from_open_withdrawals),
        migrations.AlterField(
            model_name='registration',
            name='status',
            field=models.CharField(choices=[('registered', 'Registered'), ('waitlisted', 'Waitlisted')], default='registered', max_length=20, verbose_name='status'),
        ),
    ]
