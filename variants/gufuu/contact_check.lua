-- contact_check.lua: who is in check.  A shared piece gives check only
-- while its pattern holds both Kings: it attacks the one and touches the
-- other, its checking side's.  Such a piece always checks the side to
-- move (the opponent's move set it up, or it was there before that move,
-- which fixed_checker.lua then refused).  So the side to move is in check
-- when some shared piece covers both Kings, and the side that has just
-- moved never is: what its move may not do is up to the vetoes.
-- (gufuu.contact is gufuu.any_covers(gufuu.read(pos)) from the board
-- code, with no table: the engine asks this hook about every position it
-- tests, so the hook is gufuu.contact itself, which ignores `side`.)
effect{
  name = "contact-check",
  check_to_move = true,       -- the engine asks only about the side to move
  check_pure = true,          -- the board alone decides: asked once a position
  check = gufuu.contact,
}
