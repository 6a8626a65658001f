"""What the pages draw and say: the board's SVG, the rules' diagrams, the words of moves and positions."""
