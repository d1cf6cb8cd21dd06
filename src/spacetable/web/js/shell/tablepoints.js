// Points between the screen and a table drawn in SVG with its y axis up, the SVG's y axis
// being the table's flipped (the boards of the games measured in inches or millimetres): a
// board asks with the element whose user space holds the table.

/** A pointer position (client pixels) on the table drawn in `element`: {x, y}, y up. */
export function clientToTable(element, clientX, clientY) {
  const matrix = element.getScreenCTM();
  if (!matrix) return { x: 0, y: 0 };
  const p = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
  return { x: p.x, y: -p.y };
}

/** A table point ({x, y}, y up) of the table drawn in `element`, on screen: {x, y} client pixels. */
export function tableToClient(element, x, y) {
  const matrix = element.getScreenCTM();
  if (!matrix) return { x: 0, y: 0 };
  const p = new DOMPoint(x, -y).matrixTransform(matrix);
  return { x: p.x, y: p.y };
}
