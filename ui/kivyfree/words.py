"""The game in plain words: the one place where the core's values become sentences.

Card names, what the last event did, a state table for the terminal, the
review and the statistics (:mod:`ui.kivyfree.notice_words` says the notices
and the camera's status, so that the command line's tables do not load
them). Shared by the
command line and the touchscreen presenters, so both say the same thing the
same way, in the language :mod:`ui.kivyfree.i18n` has in use. No Kivy import: the
command line uses this module.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence

from companion.cards import CATALOGUE, ROUNDS
from companion.engine import (
    ArtifactOnPath,
    Bust,
    FirstHazard,
    Phase,
    Revealed,
    State,
    Status,
    TreasureSplit,
)
from ui.kivyfree.i18n import _, ljust, ngettext, pgettext, rjust, text_width
from ui.kivyfree.lines import keep_whole

TYPE_CHECKING = False  # mypy reads it as true; these are for the annotations only, and
if TYPE_CHECKING:  # 6 ms of imports that `replay`'s table never needs
    from fractions import Fraction

    from companion.review import Decision, ModelInfo, Review, SeatReview
    from companion.stats import HeadToHead, PlayerStats


def hazard_name(kind: str) -> str:
    return {
        "SNAKE": _("snakes"),
        "SPIDER": _("spiders"),
        "MUMMY": _("mummy"),
        "FIRE": _("fire"),
        "ROCKS": _("rockslide"),
    }[kind]


def hazard_object(kind: str) -> str:
    """A hazard as the object of a verb ("take back the rockslide"): Polish
    says "lawinę", not "lawina"; the other languages say it as
    :func:`hazard_name` does."""
    return {
        "SNAKE": pgettext("the object of a verb", "snakes"),
        "SPIDER": pgettext("the object of a verb", "spiders"),
        "MUMMY": pgettext("the object of a verb", "mummy"),
        "FIRE": pgettext("the object of a verb", "fire"),
        "ROCKS": pgettext("the object of a verb", "rockslide"),
    }[kind]


def card_name(card_id: str, *, as_object: bool = False) -> str:
    """A card in words, e.g. "treasure 11", "spiders", "artifact 3";
    ``as_object``: as the object of a verb (see :func:`hazard_object`)."""
    c = CATALOGUE[card_id]
    if c.is_treasure:
        return _("treasure {value}").format(value=c.value)
    if c.is_artifact:
        return _("artifact {number}").format(number=c.order)
    assert c.hazard is not None
    return hazard_object(c.hazard) if as_object else hazard_name(c.hazard)


def status_name(status: Status) -> str:
    return {Status.IN: _("in temple"), Status.CAMP: _("in camp"), Status.BUSTED: _("busted")}[
        status
    ]


def listed(items: Sequence[str]) -> str:
    """Items one after another as the language lists them: "a, b, c"; Japanese
    "a、b、c"."""
    return pgettext("between the items of a list", ", ").join(items)


def names(state: State, seats: tuple[int, ...] | list[int]) -> str:
    """Seat names joined as a person would say them: "Ana, Bo and Cy"."""
    keep_whole(s.name for s in state.seats)  # a Japanese line never breaks a name
    return joined([state.seats[i].name for i in seats])


def joined(said: list[str]) -> str:
    if len(said) <= 1:
        return "".join(said)
    return _("{first} and {last}").format(first=listed(said[:-1]), last=said[-1])


def last_event(state: State) -> str:
    """What the latest draw or reveal did, in one or two sentences."""
    out = state.last
    if out is None:
        if state.phase is Phase.DRAW and not state.path:
            return _("Round {round}: turn the first card.").format(round=state.round)
        return ""
    match out:
        case TreasureSplit(card, value, seats, each, left):
            if len(seats) == 1:  # "7 for 1 seat: 7 each" said the count twice
                return _full_stop(
                    ngettext(
                        "{n} gem, all for the one seat still in",
                        "{n} gems, all for the one seat still in",
                        value,
                    ).format(n=value)
                )
            if each:
                text = ngettext(
                    "{value} for {n} seat: {each} each",
                    "{value} split {n} ways: {each} each",
                    len(seats),
                ).format(value=value, n=len(seats), each=each)
            else:  # "0 each" reads as a slip ("1人0個")
                text = ngettext(
                    "{value} for {n} seat: no gems each",
                    "{value} split {n} ways: no gems each",
                    len(seats),
                ).format(value=value, n=len(seats))
            if left:
                text += ngettext(
                    ", {left} left on the card", ", {left} left on the card", left
                ).format(left=left)
            return _full_stop(text)
        case ArtifactOnPath(card):
            return _("An artifact lies on the path; only a seat that leaves alone takes it.")
        case FirstHazard(card):
            return _("{hazard}: nothing happens yet; a second one ends the round.").format(
                hazard=card_name(card).capitalize()
            )
        case Bust(card=card) if state.phase is Phase.GAME_OVER:
            # The last round: there is no next round's deck to take a card out of.
            return _("Second {hazard}: everyone in the temple loses their gems.").format(
                hazard=card_name(card)
            )
        case Bust(card=card):
            return _(
                "Second {hazard}: everyone in the temple loses their gems; "
                "put one {hazard} card out of the game."
            ).format(hazard=card_name(card))
        case Revealed(camp=camp, share=share, left=left, artifacts=artifacts):
            if not camp:
                return _("Everyone goes on.")
            if share:
                text = ngettext(
                    "{names} leaves: {share} from the path",
                    "{names} leave: {share} each from the path",
                    len(camp),
                ).format(names=names(state, camp), share=share)
            else:  # "0 from the path" reads as a slip
                text = ngettext(
                    "{names} leaves: no gems from the path",
                    "{names} leave: no gems from the path",
                    len(camp),
                ).format(names=names(state, camp))
            if artifacts:
                text += ngettext(
                    ", and takes the artifact worth {values}",
                    ", and takes the artifacts worth {values}",
                    len(artifacts),
                ).format(values=" + ".join(str(a.value) for a in artifacts))
            if left:
                text += ngettext(
                    "; {left} stays on the path", "; {left} stay on the path", left
                ).format(left=left)
            return _full_stop(text)
    return ""


def _full_stop(sentence: str) -> str:
    # Japanese ends a sentence with 。, not with a Latin full stop.
    return pgettext("end of a sentence", "{sentence}.").format(sentence=sentence)


def table(state: State, *, hidden_tents: bool = False) -> str:
    """The state as a readable text table, for the terminal."""
    lines = [
        _("{rules} · round {round} of {rounds} · {phase}").format(
            rules=state.rules.name, round=state.round, rounds=ROUNDS,
            phase=phase_name(state.phase),
        )
    ]
    # Each heading is its own call: Babel's extractor on Python 3.11 does not
    # look inside an f-string's expressions, and a word it misses is never
    # translated.
    heads = (_("seat"), _("status"), _("hand"), _("banked"), _("artifacts"), _("score"))
    final = state.phase is Phase.GAME_OVER
    rows = []
    for s in state.seats:
        banked = "?" if hidden_tents and not final else str(s.banked)
        score = "?" if hidden_tents and not final else str(s.score)
        arts = "+".join(str(a.value) for a in s.artifacts) or "-"
        rows.append((s.name, status_name(s.status), str(s.hand), banked, arts, score))
    laid_out = aligned((heads, *rows), right=(2, 3, 5))
    lines.append(laid_out[0])
    for i, line in enumerate(laid_out[1:]):
        lines.append(f"{line} *" if final and i in state.winners else line)
    path = " · ".join(
        f"{p.card}({p.left})" if p.left else p.card for p in state.path
    ) or "-"
    lines.append(_("path: {path}").format(path=path))
    if state.removed:
        lines.append(_("out of the game: {cards}").format(cards=listed(state.removed)))
    if state.lost:
        lines.append(_("artifacts lost: {cards}").format(cards=listed(state.lost)))
    said = last_event(state)
    if said:
        lines.append(said)
    if state.to_remove:
        lines.append(_("Take {card} out of the game.").format(card=state.to_remove))
    if state.phase is Phase.ROUND_OVER and state.next_artifact:
        lines.append(
            _("Shuffle {card} into the deck for round {round}.").format(
                card=state.next_artifact, round=state.round + 1
            )
        )
    if state.due:
        lines.append(_("Choice due from: {names}").format(names=names(state, state.due)))
    if final:
        lines.append(_("Winner: {names}").format(names=names(state, state.winners)))
    return "\n".join(lines)


def aligned(rows: Sequence[Sequence[str]], *, right: Container[int] = ()) -> list[str]:
    """``rows`` as lines of a terminal's table: each column as wide as its widest
    cell in terminal columns (a Japanese character takes two), two spaces
    between columns; the columns numbered in ``right`` aligned to the right.

    >>> aligned([("名前", "得点"), ("Ana", "13")], right=(1,))
    ['名前  得点', 'Ana     13']
    """
    widths = [max(text_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            rjust(cell, width) if i in right else ljust(cell, width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def name_full(columns: int) -> str:
    """What a name field says when a letter did not fit: a name has room for
    ``columns`` Latin letters, a Japanese character taking two."""
    kana = columns // 2
    return _("A name has room for {letters}, or {kana}: this one is full.").format(
        letters=ngettext("{n} letter", "{n} letters", columns).format(n=columns),
        kana=ngettext("{n} Japanese character", "{n} Japanese characters", kana).format(n=kana),
    )


def phase_name(phase: Phase) -> str:
    return {
        Phase.DRAW: _("turn a card"),
        Phase.CHOOSE: _("torch or camp?"),
        Phase.ROUND_OVER: _("round over"),
        Phase.GAME_OVER: _("game over"),
    }[phase]


def decimal(value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals, as the language writes it.

    Rounded as Babel's ``format_decimal`` rounds (the float's shortest
    repr, half to even). Babel itself is not asked: its locale data held
    4 MB for English and 1 MB for each other language once the first
    review was worded, and the one thing a language changes in a figure
    below a thousand is its decimal mark, which each catalogue gives (a
    test holds it to Babel's)."""
    # Here, not at the top: 0.8 ms of every worded command, and the
    # readable `replay` words no figure with decimals.
    from decimal import ROUND_HALF_EVEN, Decimal

    step = Decimal(1).scaleb(-digits)
    return with_decimal_mark(f"{Decimal(repr(value)).quantize(step, ROUND_HALF_EVEN):f}")


def with_decimal_mark(figure: str) -> str:
    """A figure written with a point, as the language writes it."""
    # i18n: the decimal mark of this language: "." in 1.5, or "," in 1,5
    return figure.replace(".", pgettext("decimal mark", "."))


# --- the post-game review -------------------------------------------------------------


def signed(value: Fraction) -> str:
    """A review figure with its sign and one decimal, as the language writes it."""
    shown = decimal(abs(float(value)))
    if round(abs(float(value)), 1) == 0:
        return shown
    return ("+" if value > 0 else "\u2212") + shown


def review_line(seat: SeatReview) -> str:
    """A seat's review in one line: what its choices and the cards made of its score."""
    return _("choices {choices} · luck {luck}").format(
        choices=signed(seat.choices), luck=signed(seat.luck)
    )


def model_line(review: Review) -> str:
    """Which model of the other seats the review played (docs/review.md)."""
    return model_info_line(review.model)


def model_info_line(m: ModelInfo) -> str:
    """Which model of the other seats: fitted to these players' choices, or the default."""
    if m.name == "fitted":
        return ngettext(
            "Model of the other seats: fitted to {n} choices of these players in {games} game",
            "Model of the other seats: fitted to {n} choices of these players in {games} games",
            m.games,
        ).format(n=m.decisions, games=m.games)
    return _("Model of the other seats: the default ({n} choices of these players, "
             "too few to fit)").format(n=m.decisions)


def decision_line(d: Decision) -> str:
    """One decision: both choices' values, the uncertainty, and whether it was a mistake."""
    line = _("round {round}, card {card}: {choice}; staying {stay} ± {uncertainty}, "
             "leaving {leave} ({gain})").format(
        round=d.round, card=d.cards,
        choice=_("camp") if d.left else _("torch"),
        stay=decimal(float(d.stay)),
        uncertainty=decimal(float(d.uncertainty)),
        leave=decimal(float(d.leave)),
        gain=signed(d.gain),
    )  # fmt: skip
    return _("{decision} · a mistake").format(decision=line) if d.mistake else line


def review_text(review: Review, bots: Mapping[int, str]) -> str:
    """The whole review for the terminal: the model, then per seat a summary,
    its three largest swings, and every decision in order."""
    lines = [model_line(review)]
    for seat in review.seats:
        bot = bots.get(seat.seat)
        name = seat.name if bot is None else _("{name} (bot: {strategy})").format(
            name=seat.name, strategy=strategy_name(bot)
        )
        lines.append(
            _("{name}: {total} · expected {expected} · {line}").format(
                name=name, total=seat.total,
                expected=decimal(float(seat.expected)),
                line=review_line(seat),
            )
        )
        if seat.swings:
            lines.append("  " + _("Largest swings:"))
            lines.extend("    " + decision_line(d) for d in seat.swings)
            lines.append("  " + _("Every decision:"))
            lines.extend("    " + decision_line(d) for d in seat.decisions)
    return "\n".join(lines)


def strategy_name(strategy: str) -> str:
    """A bot strategy's name for the table."""
    return {
        "cautious": _("cautious"),
        "greedy": _("greedy"),
        "random": _("random"),
        "expert": _("expert"),
    }.get(strategy, strategy)


def percent(fraction: float) -> str:
    return _("{n}%").format(n=round(fraction * 100))


def stats_table(players: Sequence[PlayerStats], finished: int, unfinished: int) -> str:
    """The players' statistics as a readable text table, for the terminal."""
    lines = [
        ngettext("{n} finished game", "{n} finished games", finished).format(n=finished)
        + " · "
        + ngettext("{n} unfinished", "{n} unfinished", unfinished).format(n=unfinished)
    ]
    heads = (
        _("player"), _("games"), _("wins"), _("win rate"), _("mean score"), _("best"),
        _("busted"), _("gems a round"), _("artifacts"),
    )  # fmt: skip
    rows = [_stats_row(p) for p in players]
    lines.extend(aligned((heads, *rows), right=range(1, len(heads))))
    for p in players:
        if not p.head_to_head:
            continue
        lines.append("")
        lines.append(_("{player} against the others at the table:").format(player=p.player))
        for h in p.head_to_head:
            lines.append("  " + head_to_head(h))
    return "\n".join(lines)


def _stats_row(p: PlayerStats) -> tuple[str, ...]:
    return (
        p.player, str(p.games), str(p.wins), percent(p.win_rate), f"{p.mean_score:.1f}",
        str(p.best_score), percent(p.bust_rate), f"{p.banked_per_round:.1f}", str(p.artifacts),
    )  # fmt: skip


def head_to_head(h: HeadToHead) -> str:
    return _("{other}: {ahead} ahead, {behind} behind, {level} level").format(
        other=h.other, ahead=h.ahead, behind=h.behind, level=h.level
    )
