#version 330 core
// The heat map's colours: value → colour per pixel, with the lines between cells and between
// thread blocks drawn here rather than one by one, so the cost is the quad's pixels and not
// the matrix's cells. Zoomed out, the texture's mipmaps give each pixel the mean of the
// cells it covers; zoomed in, every cell is one flat colour.

in vec2 v_cell;

uniform sampler2D u_values;     // R32F: one texel per box of cells (per cell up to 4096²)
uniform vec2 u_texture_cells;   // the cells the texture spans, across and down: texels × box
uniform vec2 u_size;            // the matrix's columns and rows; cells beyond (ghost threads) get lines only
uniform vec2 u_range;           // the values drawn in u_low and in u_high
uniform vec3 u_low;
uniform vec3 u_high;
uniform vec3 u_line;            // lines between cells and between blocks
uniform vec2 u_cell_px;         // pixels per cell, across and down
uniform vec2 u_block;           // block size in cells, across and down; 0: no block lines
uniform vec2 u_selected;        // the lit block (column, row); negative: none
uniform vec3 u_selected_colour;

out vec4 frag;

// How much of this pixel a line every `period` cells and `width` pixels wide covers, along
// one axis: distance to the nearest multiple of the period, in pixels, with one pixel of
// smoothing.
float line_cover(float cell, float period, float px_per_cell, float width) {
    float distance_px = abs(fract(cell / period + 0.5) - 0.5) * period * px_per_cell;
    return clamp(0.5 * width + 0.5 - distance_px, 0.0, 1.0);
}

void main() {
    float cell_lines = 0.0;
    if (min(u_cell_px.x, u_cell_px.y) >= 6.0)
        cell_lines = 0.35 * max(line_cover(v_cell.x, 1.0, u_cell_px.x, 1.0),
                                line_cover(v_cell.y, 1.0, u_cell_px.y, 1.0));
    // Block lines from 3 px apart; thin and faint while the blocks are small, so that a
    // dense grid of blocks does not bury the colours.
    float block_lines = 0.0;
    float block_px = min(u_block.x * u_cell_px.x, u_block.y * u_cell_px.y);
    if (u_block.x > 0.0 && u_block.y > 0.0 && block_px >= 3.0) {
        float width = block_px >= 12.0 ? 2.0 : 1.0;
        float strength = clamp((block_px - 3.0) / 9.0, 0.35, 1.0);
        block_lines = strength * max(line_cover(v_cell.x, u_block.x, u_cell_px.x, width),
                                     line_cover(v_cell.y, u_block.y, u_cell_px.y, width));
    }
    float lines = max(cell_lines, block_lines);

    if (v_cell.x >= u_size.x || v_cell.y >= u_size.y) {
        // Past the matrix: the ghost threads' hatching underneath shows through the lines.
        if (lines <= 0.0) discard;
        frag = vec4(u_line, lines);
        return;
    }
    float value = texture(u_values, v_cell / u_texture_cells).r;
    float t = clamp((value - u_range.x) / max(u_range.y - u_range.x, 1e-20), 0.0, 1.0);
    vec3 colour = mix(u_low, u_high, t);
    if (u_block.x > 0.0 && u_selected.x >= 0.0 && floor(v_cell / u_block) == u_selected)
        colour = mix(colour, u_selected_colour, 0.2);
    frag = vec4(mix(colour, u_line, lines), 1.0);
}
