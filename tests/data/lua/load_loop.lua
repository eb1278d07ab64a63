-- An endless loop while the file loads.
while true do end
