-- promote: a pawn that ends its move on the far rank turns over to its
-- gold face.  Returns true when it fires, so playouts count it.
effect{
  name = "promote",
  after = function(pos, move)
    if move.kind == "drop" or move.to == nil then return false end
    local top = pos:top(move.to)
    if top == nil or top.face ~= "pawn" then return false end
    local _, rank = pos:coords(move.to)
    local far = top.owner == 0 and pos:ranks() - 1 or 0
    if rank ~= far then return false end
    pos:flip(move.to, pos:height(move.to))
    return true
  end,
}
