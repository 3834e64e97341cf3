"""A game's words and records: the decisions' and seats' words, hand classes in words, the `allfours-log/1` lines and a deal's account read as a person would."""
