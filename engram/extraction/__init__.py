"""Knowledge extraction: episodes in, propositions / concept keys / intents / prescriptions out."""
