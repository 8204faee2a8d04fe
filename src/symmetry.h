// Board symmetries and the player swap (owned by the evaluator work).
