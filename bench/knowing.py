# ruff: noqa: E501 - the vocabularies are tables, one attribute or time kind a row
"""Knowing: does memory know what changed, when things happened, and what it never heard, on wordings nobody tuned to?

A generated suite (seeded, so every run asks the same questions), built from the vocabularies below and from no
test's sentences:
- **change**: >= 40 attribute kinds (home, employer, role, partner, pet, car, ...), each with >= 3 phrasings of an
  old state, >= 3 of a change (some ending the state: "broke up", "cancelled my membership") and >= 3 of the state
  question; told in the first person (the person speaks) or the third (a friend speaks, or a document), in a
  conversation or a document, with distractor chatter between the old state and the change. Scored: the first item
  returned says the current value ("current fact first");
- **when**: >= 12 kinds of time expression ("three weeks ago", "the week before last", "on the weekend", "in early
  March", "over Christmas", ...) over dated events of one kind, the asked one inside the window and two of the same
  kind outside it. Scored: the first item says the asked event;
- **never said**: >= 40 questions about attributes of people memory knows that nobody ever told, beside the answerable
  questions of the same shapes (the change questions). Scored: "nothing relevant" (no item) on the never-said ones,
  and how many answerable ones (change and when) come back empty.
The attribute kinds and the time-expression kinds are split in two by a hash of their names: a **tune** half and a
**report** half. Only the tune half is looked at while choosing anything (docs/benchmarks.md says what was chosen on
it); the report half is the figure reported.

Each person's memory is one space, `bench-knowing-<n>`, rebuilt each run, ingested through the stack's worker (the
ingest pipeline links revisions as an adopter's ingest does). Needs the stack (`make up`, or infra/stack.sh up).

    ~/.cache/engram/venv/bin/python -m bench.knowing [--people 16] [--name knowing]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from bench.common import git_commit, write_result
from engram.formats.loading import validate_records
from engram.settings import get_settings
from graph.admin import delete_space
from graph.driver import get_driver
from graph.recall.config import RecallConfig
from graph.recall.models import RecallRequest

# -- vocabularies ----------------------------------------------------------------------------------------------------

PEOPLE = [
    "Maribel", "Tobias", "Ingrid", "Kwame", "Soraya", "Declan", "Yusra", "Fenwick", "Ottilie", "Ravindra", "Zuzana",
    "Ambrose", "Leocadia", "Teodor", "Nkechi", "Bartholomew", "Ilse", "Casimir", "Philippa", "Jorunn",
]  # fmt: skip
FRIENDS = ["Hollis", "Marisol", "Quentin", "Ysolde", "Barnaby", "Perpetua", "Eamon", "Rosalind"]

# Template marks: {s} the subject ("I" / "Maribel"), {p} its possessive ("my" / "Maribel's"), {o} its object ("me" /
# "her"), {v} / {old} / {new} a value; "{x|y}" is x in the first person and y in the third ("{am|is}", "{live|lives}").


@dataclass(frozen=True)
class Attribute:
    kind: str
    values: tuple[str, ...]
    states: tuple[str, ...]  # the old state told: {v}
    changes: tuple[str, ...]  # the change told: {old} -> {new} (or the end of {old}, where {new} is not said)
    questions: tuple[str, ...]  # the state question
    ends: tuple[str, ...] = ()  # statements that end the state without a new value


A = Attribute
ATTRIBUTES: tuple[Attribute, ...] = (
    A("home city", ("Lisbon", "Tallinn", "Valparaiso", "Ljubljana", "Porto Alegre", "Bergen"),
      ("{s} {live|lives} in {v}.", "Home for {o} is {v} these days.", "{s} {have|has} an apartment in {v}."),
      ("{s} relocated from {old} to {new}.", "{s} just moved to {new}, leaving {old} behind.",
       "{s} packed up in {old} and settled in {new}."),
      ("Where does {s3} live?", "Which city is {s3} based in?", "Where is {p3} home?")),
    A("employer", ("Halcyon Robotics", "Brindle Foods", "Corvid Analytics", "Saltmarsh Bank", "Quillon Media"),
      ("{s} {work|works} at {v}.", "{s} {am|is} employed by {v}.", "{p} job is at {v}."),
      ("{p} last day at {old} was Friday; on Monday {s} {start|starts} at {new}.",
       "{s} left {old} and joined {new}.", "{s} switched jobs from {old} to {new}."),
      ("Where does {s3} work?", "Who is {p3} employer?", "Which company does {s3} work for?")),
    A("role", ("data engineer", "nurse practitioner", "sous chef", "site foreman", "copy editor"),
      ("{s} {work|works} as a {v}.", "{p} job title is {v}.", "{s} {am|is} a {v} by trade."),
      ("{s} got promoted from {old} to {new}.", "{s} stopped being a {old} and {am|is} now a {new}.",
       "After years as a {old}, {s} retrained as a {new}."),
      ("What is {p3} job title?", "What does {s3} do for a living?", "What is {p3} role at work?")),
    A("partner", ("Anselm", "Giedre", "Tomasz", "Leilani", "Osvaldo", "Brigitta"),
      ("{s} {am|is} dating {v}.", "{p} partner is {v}.", "{s} and {v} have been together for a while."),
      ("{s} broke up with {old}; {s} {am|is} seeing {new} now.", "{s} split from {old} and started dating {new}.",
       "{old} and {s} went separate ways, and {s} {am|is} with {new} now."),
      ("Who is {s3} dating?", "Who is {p3} partner?", "Who is {s3} in a relationship with?")),
    A("pet", ("a beagle called Juniper", "a tabby called Mosk", "a parrot called Pico", "a ferret called Ziggy"),
      ("{s} {have|has} {v}.", "{p} pet is {v}.", "{s} {share|shares} the flat with {v}."),
      ("{s} rehomed {old} and adopted {new}.", "{s} no longer {have|has} {old}; {s} got {new} instead.",
       "{old} went to live with family, and {s} adopted {new}."),
      ("What pet does {s3} have?", "What animal does {s3} keep?", "Who is {p3} pet?")),
    A("car", ("a Volvo estate", "a Skoda Octavia", "a Mazda MX-5", "a Kia Niro", "a Fiat Panda"),
      ("{s} {drive|drives} {v}.", "{p} car is {v}.", "{s} {get|gets} around in {v}."),
      ("{s} traded in {old} for {new}.", "{s} sold {old} and bought {new}.", "{s} replaced {old} with {new}."),
      ("What car does {s3} drive?", "What does {s3} drive?", "Which car is {p3}?")),
    A("phone", ("a Pixel 7", "an iPhone 12", "a Fairphone 4", "a Galaxy S21", "a Nokia X30"),
      ("{s} {use|uses} {v}.", "{p} phone is {v}.", "{s} {carry|carries} {v} everywhere."),
      ("{s} switched from {old} to {new}.", "{s} upgraded {old} to {new}.", "{s} dropped {old} and got {new}."),
      ("What phone does {s3} use?", "Which phone does {s3} have?", "What is {p3} phone?")),
    A("school", ("Ridgemont College", "Harrowgate Academy", "Elmfield University", "Kestrel Institute"),
      ("{s} {study|studies} at {v}.", "{s} {am|is} enrolled at {v}.", "{p} classes are at {v}."),
      ("{s} transferred from {old} to {new}.", "{s} left {old} and enrolled at {new}.",
       "{s} changed schools, from {old} to {new}."),
      ("Where does {s3} study?", "Which school does {s3} attend?", "What college is {s3} enrolled at?")),
    A("team", ("the Harbour Hawks", "the Millbrook Rovers", "the Eastside Comets", "the Larkspur Lions"),
      ("{s} {play|plays} for {v}.", "{s} {am|is} on {v}.", "{p} team is {v}."),
      ("{s} left {old} and signed with {new}.", "{s} moved from {old} to {new}.", "{s} {play|plays} for {new} now, not {old}."),
      ("Which team does {s3} play for?", "What team is {s3} on?", "Who does {s3} play for?")),
    A("diet", ("vegetarian", "vegan", "pescatarian", "keto"),
      ("{s} {am|is} {v}.", "{s} {eat|eats} a {v} diet.", "{s} {have|has} been {v} for years."),
      ("{s} stopped being {old} and {am|is} {new} now.", "{s} switched from a {old} diet to a {new} one.",
       "{s} gave up being {old}; {s} went {new}."),
      ("What diet does {s3} follow?", "Is {s3} on a particular diet?", "What does {s3} eat, diet-wise?")),
    A("gym", ("Ironworks Gym", "PulseFit", "Granite Climbing Hall", "Blue Lane Pool"),
      ("{s} {train|trains} at {v}.", "{s} {have|has} a membership at {v}.", "{p} gym is {v}."),
      ("{s} cancelled {p} {old} membership and joined {new}.", "{s} quit {old} and signed up at {new}.",
       "{s} moved {p} membership from {old} to {new}."),
      ("Which gym does {s3} go to?", "Where does {s3} work out?", "What gym is {s3} a member of?")),
    A("manager", ("Ottoline Vance", "Rudolf Mbeki", "Sunniva Hart", "Ezekiel Marsh"),
      ("{p} manager is {v}.", "{s} {report|reports} to {v}.", "{v} is {p} boss."),
      ("{p} manager changed from {old} to {new}.", "{s} now {report|reports} to {new} instead of {old}.",
       "{old} left, so {new} is {p} boss now."),
      ("Who is {p3} manager?", "Who does {s3} report to?", "Who is {p3} boss?")),
    A("instrument", ("the cello", "the banjo", "the oboe", "the accordion", "the drums"),
      ("{s} {play|plays} {v}.", "{s} {practise|practises} {v} every evening.", "{p} instrument is {v}."),
      ("{s} gave up {old} and took up {new}.", "{s} switched from {old} to {new}.",
       "{s} no longer {play|plays} {old}; {s} {play|plays} {new}."),
      ("What instrument does {s3} play?", "Which instrument does {s3} practise?", "What does {s3} play?")),
    A("language", ("Portuguese", "Korean", "Swahili", "Icelandic", "Turkish"),
      ("{s} {am|is} learning {v}.", "{s} {study|studies} {v} on weekday evenings.", "{s} {take|takes} {v} lessons."),
      ("{s} dropped {old} and started learning {new}.", "{s} switched from {old} lessons to {new}.",
       "{s} stopped studying {old}; {s} {am|is} learning {new}."),
      ("What language is {s3} learning?", "Which language does {s3} study?", "What language lessons does {s3} take?")),
    A("doctor", ("Dr. Okonkwo", "Dr. Lindqvist", "Dr. Ferreira", "Dr. Halloran"),
      ("{p} doctor is {v}.", "{s} {see|sees} {v} for check-ups.", "{s} {am|is} a patient of {v}."),
      ("{s} changed doctors from {old} to {new}.", "{s} left {old}'s practice and registered with {new}.",
       "{s} {see|sees} {new} now instead of {old}."),
      ("Who is {p3} doctor?", "Which doctor does {s3} see?", "Who does {s3} see for check-ups?")),
    A("bank", ("Northcliff Savings", "Meridian Credit Union", "Plover Bank", "Greystone Mutual"),
      ("{s} {bank|banks} with {v}.", "{p} account is at {v}.", "{s} {keep|keeps} {p} savings at {v}."),
      ("{s} closed {p} account at {old} and opened one at {new}.", "{s} switched banks from {old} to {new}.",
       "{s} moved {p} money from {old} to {new}."),
      ("Which bank does {s3} use?", "Where does {s3} bank?", "Who does {s3} bank with?")),
    A("hobby", ("birdwatching", "woodturning", "calligraphy", "geocaching", "fencing"),
      ("{p} hobby is {v}.", "{s} {spend|spends} weekends on {v}.", "{s} {am|is} really into {v}."),
      ("{s} gave up {old} and got into {new}.", "{s} lost interest in {old}; {new} is {p} thing now.",
       "{s} swapped {old} for {new}."),
      ("What is {p3} hobby?", "What does {s3} do for fun?", "What is {s3} into these days?")),
    A("coffee order", ("a flat white", "an oat cortado", "a double espresso", "a chai latte"),
      ("{p} usual order is {v}.", "{s} always {order|orders} {v}.", "{s} {drink|drinks} {v} every morning."),
      ("{s} switched from {old} to {new}.", "{s} stopped ordering {old}; {s} {have|has} {new} now.",
       "{s} replaced {p} {old} habit with {new}."),
      ("What does {s3} usually order at the cafe?", "What is {p3} usual coffee?", "What coffee does {s3} drink?")),
    A("neighbourhood", ("Kreuzberg", "Alfama", "Vesterbro", "Trastevere", "Grinerloft"),
      ("{s} {live|lives} in {v}.", "{p} flat is in {v}.", "{s} {rent|rents} a place in {v}."),
      ("{s} moved from {old} to {new}.", "{s} left {old} for a bigger place in {new}.",
       "{s} relocated across town, from {old} to {new}."),
      ("Which neighbourhood does {s3} live in?", "What part of town is {s3} in?", "Where is {p3} flat?")),
    A("band", ("Velvet Harbour", "The Saltmen", "Orchid Static", "Copper Lanterns"),
      ("{s} {sing|sings} in {v}.", "{s} {am|is} the singer of {v}.", "{p} band is {v}."),
      ("{s} quit {old} and joined {new}.", "{s} left {old}; {s} {sing|sings} with {new} now.",
       "{s} moved from {old} to {new}."),
      ("What band is {s3} in?", "Which band does {s3} sing with?", "Who does {s3} sing for?")),
    A("choir", ("St. Brigid's Choir", "the Riverside Chorale", "the Harbour Voices"),
      ("{s} {sing|sings} with {v}.", "{s} {am|is} a member of {v}.", "{p} choir is {v}."),
      ("{s} left {old} and joined {new}.", "{s} switched from {old} to {new}.", "{s} {sing|sings} with {new} now, not {old}."),
      ("Which choir does {s3} sing with?", "What choir is {s3} in?", "Which choir is {s3} a member of?")),
    A("book club", ("the Lantern Readers", "the Tuesday Page-Turners", "the Thistle Book Circle"),
      ("{s} {go|goes} to {v}.", "{p} book club is {v}.", "{s} {am|is} in {v}."),
      ("{s} quit {old} and joined {new}.", "{s} moved from {old} to {new}.", "{s} left {old}; {new} is {p} club now."),
      ("Which book club does {s3} attend?", "What book club is {s3} in?", "Which reading group does {s3} go to?")),
    A("bike", ("a Brompton", "a Trek gravel bike", "a Dutch cargo bike", "a Cannondale road bike"),
      ("{s} {ride|rides} {v}.", "{p} bike is {v}.", "{s} {commute|commutes} on {v}."),
      ("{s} sold {old} and bought {new}.", "{s} traded {old} for {new}.", "{s} replaced {old} with {new}."),
      ("What bike does {s3} ride?", "Which bike does {s3} have?", "What does {s3} cycle on?")),
    A("streaming service", ("Netflix", "Mubi", "Crunchyroll", "Criterion Channel"),
      ("{s} {subscribe|subscribes} to {v}.", "{s} {watch|watches} everything on {v}.", "{p} streaming service is {v}."),
      ("{s} cancelled {old} and signed up for {new}.", "{s} switched from {old} to {new}.", "{s} dropped {old} for {new}."),
      ("Which streaming service does {s3} use?", "What does {s3} subscribe to for films?", "Where does {s3} watch shows?")),
    A("landlord", ("Mrs. Abernathy", "Mr. Castellanos", "Harlow Lettings", "Mr. Vukovic"),
      ("{p} landlord is {v}.", "{s} {rent|rents} from {v}.", "{s} {pay|pays} rent to {v}."),
      ("{p} landlord changed from {old} to {new}.", "{old} sold the building, so {s} {rent|rents} from {new} now.",
       "{s} now {pay|pays} rent to {new} instead of {old}."),
      ("Who is {p3} landlord?", "Who does {s3} rent from?", "Who does {s3} pay rent to?")),
    A("favourite cuisine", ("Ethiopian", "Georgian", "Peruvian", "Sichuan", "Lebanese"),
      ("{p} favourite cuisine is {v}.", "{s} {love|loves} {v} food more than any other.", "{s} always {pick|picks} {v} when eating out."),
      ("{s} used to love {old} food, but {new} is {p} favourite now.", "{p} favourite cuisine changed from {old} to {new}.",
       "{s} went off {old} food; {s} {prefer|prefers} {new} now."),
      ("What is {p3} favourite cuisine?", "What food does {s3} like most?", "What cuisine does {s3} prefer?")),
    A("dentist", ("Dr. Kapoor", "Dr. Moreau", "Dr. Salgado", "Dr. Whitfield"),
      ("{p} dentist is {v}.", "{s} {see|sees} {v} for {p} teeth.", "{s} {go|goes} to {v} for dental check-ups."),
      ("{s} switched dentists from {old} to {new}.", "{s} left {old} and registered with {new}.", "{s} {see|sees} {new} now, not {old}."),
      ("Who is {p3} dentist?", "Which dentist does {s3} see?", "Who does {s3} see for dental check-ups?")),
    A("commute", ("the tram", "the ferry", "a car pool", "the night bus"),
      ("{s} {commute|commutes} by {v}.", "{s} {take|takes} {v} to work.", "{p} commute is on {v}."),
      ("{s} stopped taking {old}; {s} {commute|commutes} by {new} now.", "{s} switched from {old} to {new} for work.",
       "{s} gave up {old} and {take|takes} {new} to work."),
      ("How does {s3} get to work?", "How does {s3} commute?", "What does {s3} take to work?")),
    A("apartment floor", ("the ground floor", "the fourth floor", "the top floor", "the basement flat"),
      ("{s} {live|lives} on {v}.", "{p} flat is on {v}.", "{s} {have|has} a place on {v}."),
      ("{s} moved from {old} to {new} in the same building.", "{s} swapped {old} for {new}.", "{s} left {old} for {new}."),
      ("Which floor does {s3} live on?", "What floor is {p3} flat on?", "Where in the building does {s3} live?")),
    A("volunteer work", ("the food bank", "the animal shelter", "the hospice shop", "the river clean-up crew"),
      ("{s} {volunteer|volunteers} at {v}.", "{s} {help|helps} out at {v} on Sundays.", "{p} volunteering is at {v}."),
      ("{s} stopped volunteering at {old} and joined {new}.", "{s} left {old}; {s} {help|helps} at {new} now.",
       "{s} moved {p} volunteering from {old} to {new}."),
      ("Where does {s3} volunteer?", "Which charity does {s3} help?", "Where does {s3} help out?")),
    A("sport", ("rowing", "squash", "ultimate frisbee", "judo", "water polo"),
      ("{s} {play|plays} {v}.", "{p} sport is {v}.", "{s} {compete|competes} in {v}."),
      ("{s} gave up {old} and took up {new}.", "{s} switched from {old} to {new}.", "{s} no longer {do|does} {old}; {s} {do|does} {new}."),
      ("What sport does {s3} play?", "Which sport is {s3} into?", "What sport does {s3} compete in?")),
    A("tea", ("rooibos", "lapsang souchong", "genmaicha", "Earl Grey"),
      ("{s} {drink|drinks} {v}.", "{p} tea is {v}.", "{s} {brew|brews} {v} every afternoon."),
      ("{s} went from {old} to {new}.", "{s} stopped drinking {old} and {drink|drinks} {new} now.", "{s} swapped {old} for {new}."),
      ("What tea does {s3} drink?", "Which tea does {s3} like?", "What does {s3} brew in the afternoon?")),
    A("hairdresser", ("Salon Marguerite", "Clip Joint", "Tresses by Noor", "The Barber Shed"),
      ("{s} {get|gets} {p} hair cut at {v}.", "{p} hairdresser is {v}.", "{s} {go|goes} to {v} for haircuts."),
      ("{s} left {old} and {go|goes} to {new} now.", "{s} switched from {old} to {new}.", "{s} tried {new} and dropped {old}."),
      ("Where does {s3} get a haircut?", "Who is {p3} hairdresser?", "Where does {s3} go for haircuts?")),
    A("laptop", ("a ThinkPad X1", "a MacBook Air", "a Framework laptop", "a Dell XPS"),
      ("{s} {work|works} on {v}.", "{p} laptop is {v}.", "{s} {use|uses} {v} for everything."),
      ("{s} replaced {old} with {new}.", "{s} sold {old} and bought {new}.", "{s} switched from {old} to {new}."),
      ("What laptop does {s3} use?", "Which computer does {s3} have?", "What is {p3} laptop?")),
    A("running club", ("the Dawn Striders", "the Canal Harriers", "the Parkside Pacers"),
      ("{s} {run|runs} with {v}.", "{p} running club is {v}.", "{s} {am|is} a member of {v}."),
      ("{s} left {old} and joined {new}.", "{s} switched from {old} to {new}.", "{s} {run|runs} with {new} now, not {old}."),
      ("Which running club does {s3} belong to?", "Who does {s3} run with?", "What running club is {s3} in?")),
    A("therapist", ("Dr. Esterhazy", "Dr. Nwosu", "Dr. Pellegrini"),
      ("{p} therapist is {v}.", "{s} {see|sees} {v} every other week.", "{s} {talk|talks} things through with {v}."),
      ("{s} changed therapists, from {old} to {new}.", "{s} stopped seeing {old} and started with {new}.", "{s} {see|sees} {new} now instead of {old}."),
      ("Who is {p3} therapist?", "Which therapist does {s3} see?", "Who does {s3} talk things through with?")),
    A("garden plot", ("the Elm Street allotment", "the rooftop garden", "the community orchard"),
      ("{s} {grow|grows} vegetables at {v}.", "{p} plot is at {v}.", "{s} {garden|gardens} at {v}."),
      ("{s} gave up {p} plot at {old} and got one at {new}.", "{s} moved from {old} to {new}.", "{s} {garden|gardens} at {new} now, not {old}."),
      ("Where does {s3} garden?", "Where is {p3} plot?", "Where does {s3} grow vegetables?")),
    A("shift", ("the night shift", "the early shift", "the weekend shift"),
      ("{s} {work|works} {v}.", "{p} shift is {v}.", "{s} {am|is} on {v}."),
      ("{s} moved from {old} to {new}.", "{s} switched from {old} to {new}.", "{s} {am|is} off {old}; {s} {work|works} {new} now."),
      ("Which shift does {s3} work?", "What shift is {s3} on?", "When does {s3} work, which shift?")),
    A("board game", ("Catan", "Go", "Wingspan", "backgammon"),
      ("{p} favourite board game is {v}.", "{s} {play|plays} {v} every Friday.", "{s} {am|is} obsessed with {v}."),
      ("{s} got bored of {old} and {am|is} into {new} now.", "{s} switched from {old} to {new}.", "{s} stopped playing {old}; {new} is {p} game now."),
      ("What board game does {s3} play?", "Which board game is {s3} into?", "What is {p3} favourite board game?")),
    A("radio station", ("Harbour FM", "Radio Lumen", "Jazz 88", "the BBC World Service"),
      ("{s} {listen|listens} to {v}.", "{p} radio station is {v}.", "{s} always {have|has} {v} on."),
      ("{s} switched from {old} to {new}.", "{s} stopped listening to {old}; {s} {play|plays} {new} now.", "{s} replaced {old} with {new}."),
      ("What radio station does {s3} listen to?", "Which station does {s3} have on?", "What does {s3} listen to on the radio?")),
    A("mentor", ("Professor Adeyemi", "Greta Sandoval", "Hugo Lindgren"),
      ("{p} mentor is {v}.", "{s} {meet|meets} {v} monthly for advice.", "{v} mentors {o}."),
      ("{p} mentor changed from {old} to {new}.", "{s} stopped meeting {old}; {new} mentors {o} now.", "{new} took over from {old} as {p} mentor."),
      ("Who is {p3} mentor?", "Who mentors {s3}?", "Who does {s3} go to for advice?")),
    A("kayak", ("a sea kayak", "an inflatable kayak", "a whitewater kayak"),
      ("{s} {paddle|paddles} {v}.", "{p} kayak is {v}.", "{s} {own|owns} {v}."),
      ("{s} sold {old} and bought {new}.", "{s} traded {old} for {new}.", "{s} replaced {old} with {new}."),
      ("What kayak does {s3} paddle?", "Which kayak does {s3} own?", "What does {s3} paddle?")),
    A("painting medium", ("watercolour", "oil paint", "gouache", "charcoal"),
      ("{s} {paint|paints} in {v}.", "{p} medium is {v}.", "{s} {work|works} mostly in {v}."),
      ("{s} switched from {old} to {new}.", "{s} gave up {old} and {paint|paints} in {new} now.", "{s} moved from {old} to {new}."),
      ("What does {s3} paint in?", "Which medium does {s3} use?", "What is {p3} painting medium?")),
)  # fmt: skip
# Attributes nobody in the suite is ever told about (the never-said questions ask them, besides the kinds a person's
# space does not hold): the parse must find them unmentioned whatever else is said of the person.
NEVER_TOLD = (
    ("blood type", "What is {p3} blood type?"), ("allergy", "Does {s3} have any allergies?"),
    ("shoe size", "What is {p3} shoe size?"), ("middle name", "What is {p3} middle name?"),
    ("tattoo", "Does {s3} have a tattoo?"), ("siblings", "How many siblings does {s3} have?"),
    ("degree", "What degree does {s3} hold?"), ("mortgage", "Who holds {p3} mortgage?"),
    ("passport", "Which passport does {s3} hold?"), ("vaccination", "When was {p3} last vaccination?"),
    ("grandmother", "Where does {p3} grandmother live?"), ("wedding", "When is {p3} wedding?"),
)  # fmt: skip
CHATTER = (
    "The weather has been all over the place this week.", "I finally finished that crossword from Sunday.",
    "Traffic on the ring road was terrible this morning.", "Did you see the match last night? What a finish.",
    "I should really clean out the fridge.", "The new bakery on the corner does great rye bread.",
    "My neighbour's dog barked for an hour straight.", "I'm thinking of repainting the hallway green.",
    "That documentary about octopuses was fascinating.", "The printer at work jammed again.",
    "I keep forgetting to water the basil.", "The library extended its opening hours.",
)  # fmt: skip
EVENTS = (  # one kind of outing, told alike, so only its time tells them apart: {x} its distinctive name
    ("went to a concert by {x}", ("the Marrow Sisters", "Kobalt Echo", "Dune Parade", "the Glasshouse Trio")),
    ("hiked up {x}", ("Ben Corran", "Mount Vesk", "Harrow Fell", "Pico Alto")),
    ("had dinner at {x}", ("Osteria Fiore", "the Tin Lantern", "Kasbah Rooms", "Noodle Yard")),
    ("visited the {x} museum", ("clockmaking", "textile", "railway", "maritime")),
    ("played a tournament at {x}", ("Westbrook Courts", "Pier Club", "Ashgrove Hall", "Riverside Arena")),
    ("saw the play {x}", ("The Salt Road", "Borrowed Light", "Winter Quay", "Paper Lions")),
)  # fmt: skip


@dataclass(frozen=True)
class TimeKind:
    kind: str
    phrase: str  # the question's time: "{N}" none here, each is worded in full
    inside: Callable[[date], date]  # a day inside the window, given now's day
    outside: Callable[[date], tuple[date, date]]  # two days outside it


def _saturday_before(day: date) -> date:
    return day - timedelta(days=(day.weekday() - 5) % 7 or 7)


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


NOW = datetime(2024, 10, 16, 18, 0, tzinfo=UTC)  # a Wednesday: "last summer" is 2024's, "Christmas" 2023's
TIME_KINDS: tuple[TimeKind, ...] = (
    TimeKind("yesterday", "yesterday", lambda d: d - timedelta(days=1), lambda d: (d - timedelta(days=9), d - timedelta(days=30))),
    TimeKind("days ago", "three days ago", lambda d: d - timedelta(days=3), lambda d: (d - timedelta(days=12), d - timedelta(days=40))),
    TimeKind("last week", "last week", lambda d: _monday(d) - timedelta(days=5), lambda d: (d - timedelta(days=30), d - timedelta(days=60))),
    TimeKind("weeks ago", "five weeks ago", lambda d: d - timedelta(weeks=5), lambda d: (d - timedelta(weeks=1), d - timedelta(weeks=11))),
    TimeKind("week before last", "the week before last", lambda d: _monday(d) - timedelta(days=12),
             lambda d: (_monday(d) - timedelta(days=4), d - timedelta(days=50))),
    TimeKind("last weekend", "last weekend", _saturday_before, lambda d: (_saturday_before(d) - timedelta(weeks=3), d - timedelta(days=45))),
    TimeKind("on the weekend", "on the weekend", lambda d: _saturday_before(d) + timedelta(days=1),
             lambda d: (_saturday_before(d) - timedelta(weeks=4), d - timedelta(days=60))),
    TimeKind("last month", "last month", lambda d: d.replace(day=1) - timedelta(days=15), lambda d: (d - timedelta(days=100), d - timedelta(days=2))),
    TimeKind("months ago", "four months ago", lambda d: d - timedelta(days=122), lambda d: (d - timedelta(days=20), d - timedelta(days=250))),
    TimeKind("early month", "in early July", lambda d: date(d.year, 7, 4), lambda d: (date(d.year, 7, 26), date(d.year, 5, 3))),
    TimeKind("late month", "in late May", lambda d: date(d.year, 5, 27), lambda d: (date(d.year, 5, 5), date(d.year, 8, 27))),
    TimeKind("last weekday", "last Tuesday", lambda d: d - timedelta(days=(d.weekday() - 1) % 7 or 7),
             lambda d: (d - timedelta(days=(d.weekday() - 1) % 7 or 7) - timedelta(weeks=3), d - timedelta(days=70))),
    TimeKind("holiday", "over Christmas", lambda d: date(d.year - 1, 12, 25), lambda d: (date(d.year, 2, 20), date(d.year - 1, 11, 10))),
    TimeKind("the other day", "the other day", lambda d: d - timedelta(days=2), lambda d: (d - timedelta(days=25), d - timedelta(days=80))),
    TimeKind("season", "last summer", lambda d: date(d.year, 7, 20), lambda d: (date(d.year, 4, 10), date(d.year - 1, 11, 5))),
    TimeKind("year", "in 2022", lambda d: date(2022, 9, 14), lambda d: (date(2023, 9, 14), date(2021, 6, 2))),
)  # fmt: skip


def half(name: str) -> str:
    """Which half a kind belongs to, by a hash of its name: fixed, whatever is added to the lists."""
    return "tune" if hashlib.sha256(name.encode()).digest()[0] % 2 == 0 else "report"


# -- the suite -------------------------------------------------------------------------------------------------------


def _person(template: str, first: bool, name: str) -> str:
    """A template in the first person ("I", "my", "me") or the third (the name, "Name's", "her")."""
    out, rest = [], template
    while "{" in rest:
        before, _, tail = rest.partition("{")
        mark, _, rest = tail.partition("}")
        out.append(before)
        if "|" in mark:
            one, three = mark.split("|")
            out.append(one if first else three)
        elif mark == "s":
            out.append("I" if first else name)
        elif mark == "p":
            out.append("my" if first else f"{name}'s")
        elif mark == "o":
            out.append("me" if first else "them")
        else:
            out.append("{" + mark + "}")
    out.append(rest)
    text = "".join(out)
    return text[0].upper() + text[1:]


def _askable(template: str, first: bool) -> bool:
    """Whether the question reads in the person it is asked in ("Who mentors I?" does not)."""
    return not first or re.search(r"\{[sp]3\}\?|mentors \{s3\}", template) is None


def _question(template: str, first: bool, name: str) -> str:
    """The question asked of the person: by them ("Where do I live?") or about them."""
    text = template.replace("{s3}", "I" if first else name).replace("{p3}", "my" if first else f"{name}'s")
    if first:
        for third, one in (("does I", "do I"), ("Does I", "Do I"), ("is I", "am I"), ("Is I", "Am I"),
                           ("I have", "I have"), ("Who is my", "Who is my")):  # fmt: skip
            text = text.replace(third, one)
    return text


@dataclass
class Case:
    family: str  # change, when, never_said, answerable
    kind: str  # the attribute or time-expression kind (the split's unit)
    space: str
    question: str
    asker: str | None
    expect: str = ""  # what the first item must say (lower case); "" for never-said
    avoid: str = ""  # the old value (change): said alone first is a miss
    told_as: str = ""  # first / third / document


@dataclass
class Space:
    name: str
    person: str
    records: list[dict[str, Any]] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)


def build(people: int, seed: int = 58) -> list[Space]:
    """The suite: `people` spaces, each one person's memory, the attributes and times spread over them."""
    rng = random.Random(seed)
    spaces = []
    attributes = list(ATTRIBUTES)
    times = list(TIME_KINDS)
    per_space = max(1, -(-2 * len(attributes) // people))  # every attribute told twice (first and third person)
    order = [(a, told) for a in attributes for told in ("first", "third")]
    rng.shuffle(order)
    today = NOW.date()
    for n in range(people):
        person = PEOPLE[n % len(PEOPLE)]
        friend = FRIENDS[n % len(FRIENDS)]
        name = f"bench-knowing-{n}"
        space = Space(name, person)
        mine = order[n * per_space : (n + 1) * per_space]
        turns_old: list[tuple[str, str]] = []
        turns_new: list[tuple[str, str]] = []
        document: list[str] = []
        told_kinds = set()
        for attribute, told in mine:
            if attribute.kind in told_kinds:
                continue
            told_kinds.add(attribute.kind)
            old, new = rng.sample(attribute.values, 2)
            first = told == "first"
            as_document = told == "third" and rng.random() < 0.4
            state = _person(rng.choice(attribute.states), first, person).replace("{v}", old)
            change = _person(rng.choice(attribute.changes), first, person).replace("{old}", old).replace("{new}", new)
            if as_document:
                document.append(change)
                turns_old.append((friend, state))
            else:
                speaker = person if first else friend
                turns_old.append((speaker, state))
                turns_new.append((speaker, change))
            question = _question(rng.choice([q for q in attribute.questions if _askable(q, first)]), first, person)
            asker = person if first else None
            space.cases.append(Case("change", attribute.kind, name, question, asker, _key(new), _key(old),
                                    "document" if as_document else told))  # fmt: skip
        # Never said: attributes this person's memory never tells, asked as the change questions are.
        untold = [a for a in attributes if a.kind not in told_kinds]
        for attribute in rng.sample(untold, min(2, len(untold))):
            first = rng.random() < 0.5
            question = _question(rng.choice([q for q in attribute.questions if _askable(q, first)]), first, person)
            space.cases.append(Case("never_said", attribute.kind, name, question, person if first else None))
        kind, template = NEVER_TOLD[n % len(NEVER_TOLD)]
        first = n % 2 == 0
        space.cases.append(
            Case("never_said", kind, name, _question(template, first, person), person if first else None)
        )
        # When: two time kinds per person, each over three events of one kind (the asked one inside the window).
        events: list[tuple[date, str]] = []
        kinds = rng.sample(EVENTS, 2)  # of two kinds: an outing of one kind is never one of the other's
        for time_kind, (wording, names) in zip(
            (times[(2 * n) % len(times)], times[(2 * n + 1) % len(times)]), kinds, strict=True
        ):
            chosen = rng.sample(names, 3)
            inside = time_kind.inside(today)
            for day, x in zip((inside, *time_kind.outside(today)), chosen, strict=True):
                events.append((day, _person("{s} " + wording.replace("{x}", x) + ".", True, person)))
            verb = wording.split(" ")[0]
            asked = {"went": "Which concert did I go to", "hiked": "Where did I hike", "had": "Where did I have dinner",
                     "visited": "Which museum did I visit", "played": "Where did I play a tournament",
                     "saw": "Which play did I see"}[verb]  # fmt: skip
            space.cases.append(
                Case("when", time_kind.kind, name, f"{asked} {time_kind.phrase}?", person, _key(chosen[0]))
            )
        space.records = _records(name, person, friend, turns_old, turns_new, document, events, rng)
        spaces.append(space)
    return spaces


def _key(value: str) -> str:
    """What a memory saying the value says: the value without its article, lower case ("a Volvo estate" -> "volvo
    estate")."""
    words = value.split()
    return " ".join(words[1:] if words[0].lower() in ("a", "an", "the") else words).lower()


def _records(
    space: str,
    person: str,
    friend: str,
    old: list[tuple[str, str]],
    new: list[tuple[str, str]],
    document: list[str],
    events: list[tuple[date, str]],
    rng: random.Random,
) -> list[dict[str, Any]]:
    """The person's memory: a first conversation with the old states, chatter sessions, dated outings, a later one
    with the changes, and a document with the changes told in the third person."""
    start = NOW - timedelta(days=900)
    sessions = [_session("s-old", start, old or [(friend, rng.choice(CHATTER))], person, friend, rng)]
    for i, (day, text) in enumerate(sorted(events)):
        at = datetime(day.year, day.month, day.day, 20, tzinfo=UTC)
        sessions.append(_session(f"s-event-{i}", at, [(person, text)], person, friend, rng))
    changed = NOW - timedelta(days=400)
    sessions.append(_session("s-new", changed, new or [(friend, rng.choice(CHATTER))], person, friend, rng))
    sessions.sort(key=lambda s: s["started_at"])
    records: list[dict[str, Any]] = [
        {"type": "conversation", "id": f"{space}-chat", "title": "chats", "sessions": sessions}
    ]
    if document:
        records.append({
            "type": "document", "id": f"{space}-news", "title": f"Newsletter: what {person} is up to",
            "created_at": (NOW - timedelta(days=380)).isoformat(), "text": " ".join(document),
        })  # fmt: skip
    return records


def _session(
    sid: str, at: datetime, said: list[tuple[str, str]], person: str, friend: str, rng: random.Random
) -> dict[str, Any]:
    turns = []
    for speaker, text in said:
        turns.append({"speaker": speaker, "text": text})
        other = friend if speaker == person else person
        turns.append({"speaker": other, "text": rng.choice(CHATTER)})  # distractor chatter between the statements
    return {"id": sid, "started_at": at.isoformat(), "turns": [dict(t, id=str(i)) for i, t in enumerate(turns)]}


# -- running it ------------------------------------------------------------------------------------------------------


def ingest(space: Space) -> float:
    from workers.jobs import wait_for_job
    from workers.resources import get_job_store
    from workers.tasks.ingest import submit_ingest

    driver = get_driver()
    delete_space(driver, get_settings().neo4j.database, space.name)
    started = time.perf_counter()
    status = wait_for_job(get_job_store(), submit_ingest(space.name, validate_records(space.records)), timeout_s=1800)
    if status.error:
        raise RuntimeError(f"{space.name}: {status.error}")
    return time.perf_counter() - started


def score(case: Case, items: list[str]) -> dict[str, Any]:
    first = items[0].lower() if items else ""
    if case.family == "never_said":
        return {"hit": not items, "empty": not items}
    hit = bool(first) and case.expect in first
    if case.family == "change" and case.avoid and case.avoid in first and case.expect not in first:
        hit = False
    return {"hit": hit, "empty": not items}


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def share(family: str, figure: str) -> float | None:
        picked = [r[figure] for r in rows if r["family"] == family]
        return round(100 * statistics.mean(picked), 1) if picked else None

    answerable = [r["empty"] for r in rows if r["family"] in ("change", "when")]
    return {
        "change": share("change", "hit"),
        "when": share("when", "hit"),
        "never_said": share("never_said", "hit"),
        "answerable_emptied": round(100 * statistics.mean(answerable), 1) if answerable else None,
        "questions": len(rows),
        "by_family": {f: sum(r["family"] == f for r in rows) for f in ("change", "when", "never_said")},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--people", type=int, default=16)
    parser.add_argument("--name", default="knowing")
    parser.add_argument("--reuse", action="store_true", help="recall from spaces an earlier run ingested")
    parser.add_argument("--half", choices=("tune", "report", "both"), default="both")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KNOB=VALUE", help="a recall knob other than its default (tuning)"
    )
    args = parser.parse_args()

    from engram.embedding import get_embedder
    from graph.recall.engine import RecallEngine

    spaces = build(args.people)
    seconds = [] if args.reuse else [ingest(space) for space in spaces]
    settings = get_settings()
    embedder = get_embedder()
    knobs = {key: json.loads(value) for key, value in (item.split("=", 1) for item in args.set)}
    config = RecallConfig(**knobs)
    engine = RecallEngine(get_driver(), settings.neo4j.database, embedder.encode, embedder.count_tokens, config=config)
    rows: list[dict[str, Any]] = []
    for space in spaces:
        for case in space.cases:
            if args.half != "both" and half(case.kind) != args.half:
                continue
            request = RecallRequest(space=case.space, query=case.question, asker=case.asker, now=NOW, limit=10)
            answer = engine.recall(request)
            texts = [item.text for item in answer.items]
            rows.append({"family": case.family, "kind": case.kind, "half": half(case.kind), "question": case.question,
                         "told_as": case.told_as, "expect": case.expect, "first": texts[0] if texts else None,
                         "reason": answer.reason, **score(case, texts)})  # fmt: skip
    engine.close()
    result = {
        "tune": summarise([r for r in rows if r["half"] == "tune"]),
        "report": summarise([r for r in rows if r["half"] == "report"]),
        "kinds": {
            "attributes": len(ATTRIBUTES),
            "time_expressions": len(TIME_KINDS),
            "never_told": len(NEVER_TOLD),
            "report_attributes": sorted(a.kind for a in ATTRIBUTES if half(a.kind) == "report"),
            "report_times": sorted(t.kind for t in TIME_KINDS if half(t.kind) == "report"),
        },
        "ingest_s_per_space": round(statistics.mean(seconds), 2) if seconds else None,
        "longmemeval": None,
        "locomo": None,
        "misses": [r for r in rows if not r["hit"]],
        "knobs": knobs,
        "commit": git_commit(),
        "command": " ".join(
            [
                "python -m bench.knowing",
                f"--people {args.people}",
                f"--name {args.name}",
                f"--half {args.half}",
                *(f"--set {item}" for item in args.set),
            ]
        ),
    }
    path = write_result(args.name, result)
    print(path, {"tune": result["tune"], "report": result["report"]})


if __name__ == "__main__":
    main()
