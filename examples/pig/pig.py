#!/usr/bin/env python3
"""The dice game Pig, played for evotune over its player protocol.

Two players race to the goal (100 points). On your turn you roll a die as
often as you like: each roll adds its pips to the turn's total, but a 1
wipes the turn's total and ends the turn. Holding banks the turn's total.

Players:
  hold20  the classic rule of thumb: hold once the turn reaches 20
  tuned   a hold policy with four knobs (see PARAMS)

A game is a pure function of (players, seed): every roll comes from a
random.Random seeded with the request's seed. Standard library only; the
protocol is described in docs/protocol.md of the evotune repository.
"""

import json
import random
import sys

PROTOCOL = 1

PARAMS = [
    {"name": "hold", "type": "int", "min": 5, "max": 60, "default": 20,
     "summary": "hold once the turn's total reaches this"},
    {"name": "chase", "type": "float", "min": -1, "max": 1, "default": 0,
     "summary": "added to the hold point per point the opponent leads"},
    {"name": "desperation", "type": "int", "min": 0, "max": 60, "default": 0,
     "summary": "when the opponent needs at most this many points, roll on to the goal"},
    {"name": "finish", "type": "int", "min": 0, "max": 60, "default": 0,
     "summary": "when I need at most this many points, roll on to the goal"},
]

OFFER = {
    "type": "hello",
    "protocol": PROTOCOL,
    "game": "pig",
    "summary": "the dice game Pig: roll or hold, a 1 loses the turn, first to the goal wins",
    "mode": "two-seat",
    "options": [{"name": "goal", "default": "100", "summary": "points needed to win"}],
    "roles": ["mover"],
    "players": [
        {"name": "hold20", "role": "mover", "summary": "holds once the turn reaches 20", "params": []},
        {"name": "tuned", "role": "mover", "summary": "tunable hold policy", "params": PARAMS},
    ],
}

HOLD20 = {"hold": 20, "chase": 0.0, "desperation": 0, "finish": 0}


def policy(seat):
    """The seat's knobs; hold20 is the tuned policy at its defaults."""
    if seat["player"] == "hold20":
        return HOLD20
    if seat["player"] != "tuned":
        raise ValueError("unknown player %r" % seat["player"])
    p = seat["params"]
    for q in PARAMS:
        x = p[q["name"]]
        if not q["min"] <= x <= q["max"]:
            raise ValueError("%s: %r is outside [%s, %s]" % (q["name"], x, q["min"], q["max"]))
    return p


def rolls_on(k, me, opp, turn, goal):
    """Whether a player with knobs k keeps rolling."""
    if me + turn >= goal:
        return False  # holding wins
    if goal - opp <= k["desperation"] or goal - me <= k["finish"]:
        return True
    return turn < k["hold"] + k["chase"] * (opp - me)


def play(req):
    """Plays one game and returns the outcome seen from seat 0."""
    goal = int(req["rules"]["goal"])
    if goal < 1:
        raise ValueError("goal %d is below 1" % goal)
    knobs = [policy(s) for s in req["seats"]]
    rng = random.Random(int(req["seed"]))
    score = [0, 0]
    side = 0
    while True:
        me, opp = score[side], score[1 - side]
        turn = 0
        while True:
            pips = rng.randint(1, 6)
            if pips == 1:
                turn = 0
                break
            turn += pips
            if not rolls_on(knobs[side], me, opp, turn, goal):
                break
        score[side] += turn
        if score[side] >= goal:
            return "win" if side == 0 else "loss"
        side = 1 - side


def main():
    out = sys.stdout
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            reply = OFFER
            if msg.get("protocol", 0) < PROTOCOL:
                reply = {"type": "error", "error": "pig.py speaks protocol %d" % PROTOCOL}
        elif kind == "play":
            try:
                reply = {"type": "result", "id": msg["id"], "outcome": play(msg)}
            except (KeyError, ValueError, TypeError) as e:
                reply = {"type": "error", "id": msg["id"], "error": str(e)}
        else:
            reply = {"type": "error", "id": msg.get("id"), "error": "unknown type %r" % kind}
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
