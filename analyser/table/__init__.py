"""What a player sees at the table: entering a real deal (``entry``, ``record``) and the hint for the decision
due in it. This layer may use the analyses, the referee, the engine, the cards and the rules; nothing below it
imports it."""
