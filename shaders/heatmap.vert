#version 330 core
// The heat map's quad: four vertices and no vertex buffer, gl_VertexID picks the corner
// (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right: one triangle strip).

uniform vec4 u_display;  // ImGui's display rectangle: x, y, width, height
uniform vec4 u_rect;     // the quad, in display coordinates: x0, y0, x1, y1
uniform vec4 u_cells;    // the cell coordinates (column, row) at (x0, y0) and at (x1, y1)

out vec2 v_cell;         // (column, row) of this point of the matrix, fractional

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 position = mix(u_rect.xy, u_rect.zw, corner);
    v_cell = mix(u_cells.xy, u_cells.zw, corner);
    // ImGui's y grows downwards, OpenGL's upwards.
    vec2 ndc = (position - u_display.xy) / u_display.zw * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
