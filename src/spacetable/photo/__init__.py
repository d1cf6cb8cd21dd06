"""The photo referee: printed cards carry fiducial markers (:mod:`.markers`, the layout the
print sheets and the detector share); one photo of the table gives every card's pose on
the table plane and a table file to resolve."""
