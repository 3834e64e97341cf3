"""What a player sees at the table: entering a real deal (``entry``, ``record``), the hint for the decision
due in it (``hint``), and a match against the computer with a coach (``play``: ``computer``, ``coach``,
``answers``, ``screen``). This layer may use the analyses, the referee, the engine, the cards and the rules;
nothing below it imports it."""
