from django.urls import path

from tables import api

game = "tournaments/<slug:slug>/games/<id:number>/"

urlpatterns = [
    path(game, api.GameDetail.as_view(), name="api-game"),
    path(game + "compose/", api.ComposeView.as_view(), name="api-game-compose"),
    path(game + "swap/", api.SwapView.as_view(), name="api-game-swap"),
    path(game + "move/", api.MoveView.as_view(), name="api-game-move"),
    path(game + "withdraw/", api.WithdrawView.as_view(), name="api-game-withdraw"),
    path(game + "rehearsal/", api.RehearsalView.as_view(), name="api-game-rehearsal"),
    path(game + "start/", api.StartView.as_view(), name="api-game-start"),
    path(game + "tables/<id:table>/", api.TableDetail.as_view(), name="api-table"),
    path(game + "where/", api.WhereView.as_view(), name="api-game-where"),
    path(game + "objectives/", api.ObjectiveView.as_view(), name="api-game-objectives"),
    path("tournaments/<slug:slug>/knockout-plan/", api.KnockoutPlanView.as_view(),
         name="api-knockout-plan"),
    path("tournaments/<slug:slug>/knockout-phases/", api.KnockoutPhasesView.as_view(),
         name="api-knockout-phases"),
    path("tournaments/<slug:slug>/knockout-phases/<str:phase>/", api.KnockoutPhaseCreateView.as_view(),
         name="api-knockout-phase"),
]
