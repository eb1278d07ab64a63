-- Reaches for the os library while the file loads.
local t = os.time()
