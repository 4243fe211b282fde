"""REST serializers of scoring/: thin; the engine and services do the work."""

from __future__ import annotations

from rest_framework import serializers

from common.engine_messages import ENDING_CHOICES

from .models import Confirmation, ResultSubmission


class ResultInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ResultSubmission.Kind.choices)
    version = serializers.IntegerField(
        min_value=0, help_text="The table's result version you started from (0: none yet). "
        "A different current version gives HTTP 409.")
    ended_by = serializers.ChoiceField(choices=ENDING_CHOICES, required=False, allow_blank=True)
    players = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text="board: [{seat, objective, eliminated}]; short: [{seat, objective_points, "
        "extra_points, armies, eliminated, risiko}]")
    owners = serializers.DictField(child=serializers.IntegerField(), required=False,
                                   help_text="board: territory → seat")
    armies = serializers.DictField(child=serializers.IntegerField(), required=False,
                                   help_text="board: territory → armies")
    record = serializers.JSONField(required=False, help_text="record: a game in the engine's record format")


class ConfirmationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Confirmation
        fields = ["id", "user", "player", "by_organizer", "double_entry", "at"]


class SubmissionSerializer(serializers.ModelSerializer):
    version = serializers.IntegerField(source="number")
    entered_by = serializers.CharField(source="entered_by.get_username", default=None)
    confirmations = ConfirmationSerializer(many=True, read_only=True)

    class Meta:
        model = ResultSubmission
        fields = ["id", "table", "version", "kind", "ended_by", "data", "scores", "entered_by",
                  "created_at", "confirmations"]


class TableResultsSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    submissions = SubmissionSerializer(many=True)


def exact_number(help_text: str = "") -> serializers.DecimalField:
    """A score as the API writes it: an exact decimal JSON number (7.2875, never 7.287)."""
    return serializers.DecimalField(max_digits=20, decimal_places=4, coerce_to_string=False,
                                    help_text=help_text or "exact decimal number")


class StandingsGameSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    points = exact_number("the game's tournament points (Punti Torneo), exact")
    counted = serializers.BooleanField()
    place = serializers.IntegerField()
    table = serializers.IntegerField()
    extra = serializers.IntegerField()
    armies = serializers.IntegerField()
    game_score = exact_number("the game score (P)")


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    shared = serializers.BooleanField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    total = exact_number("total of the games that count, exact")
    extra = serializers.IntegerField()
    armies = serializers.IntegerField()
    played = serializers.IntegerField()
    reached = serializers.IntegerField()
    advanced = serializers.BooleanField()
    games = StandingsGameSerializer(many=True)
    pending_corrections = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Games whose confirmed result (still the one counted) has a correction waiting for confirmation")
    pending_correction_note = serializers.CharField(help_text="Why the row is marked, in the request's language")


class StandingsSerializer(serializers.Serializer):
    method = serializers.CharField()
    best_n = serializers.IntegerField()
    publish_unconfirmed = serializers.BooleanField()
    games = serializers.ListField(child=serializers.IntegerField())
    rehearsal_games = serializers.ListField(child=serializers.IntegerField(),
                                            help_text="Rehearsal games: played, never counted")
    pending_correction_games = serializers.ListField(
        child=serializers.IntegerField(), help_text="Games with a correction waiting for confirmation")
    rows = StandingsRowSerializer(many=True)
    hidden_from = serializers.IntegerField(
        required=False, help_text="The organizer hid the standings from this game on until the end: these "
        "are the standings before it (absent: every game counted)")
    count = serializers.IntegerField(required=False, help_text="rows matching (with limit/offset/player/q)")
    offset = serializers.IntegerField(required=False, help_text="the page's first row (with limit/offset/player/q)")


class FormatInputSerializer(serializers.Serializer):
    preset = serializers.CharField(max_length=30)
    changes = serializers.DictField(required=False, help_text="best_n, games_count, chain, win_bonus… as the preset allows")


class FormatSerializer(serializers.Serializer):
    current = serializers.CharField(allow_null=True)
    current_numbers = serializers.DictField(allow_null=True)
    best_n = serializers.IntegerField()
    games_count = serializers.IntegerField()
    chain = serializers.ListField(child=serializers.CharField())
    club_changes = serializers.DictField()
    presets = serializers.ListField(child=serializers.DictField())
