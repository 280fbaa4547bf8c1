//! The 3D painter: shaded bodies, translucent bodies, lines of a fixed pixel width, arrows,
//! dots, the ground grid and the axis triad, through a [`Camera3`].
//!
//! What macroquad's default 3D pipeline does not give, and how it is made up for here:
//! - No lighting: [`shade`] bakes a fixed light into the vertex colours.
//! - Lines are 1 pixel wide: every line is a camera-facing quad whose corners are placed in
//!   screen pixels and taken back to the world at the ends' depths, so its width is exact in
//!   pixels at every depth.
//! - Triangles write depth even when translucent: translucent surfaces and on-top overlays
//!   use two materials of their own, made once per thread. miniquad's GL backend ties the
//!   depth test to `depth_write` (a pipeline with `depth_write: false` is not depth-tested
//!   at all) and ignores `depth_write_offset`, so the translucent material keeps
//!   `depth_write: true` for its test and `without_depth_writes` masks the writes off with
//!   a raw `glDepthMask` around its draw calls; the on-top material simply has no depth.
//! - No depth offset: edges are pulled toward the eye along their view rays instead, which
//!   leaves them where they are on the screen.
//! - One draw call holds fewer than 5,000 indices and 10,000 vertices (the batcher's default
//!   `draw_call_index_capacity` and `draw_call_vertex_capacity`; `geometry()` clamps a larger
//!   mesh, dropping triangles): meshes are cut into [`Chunks`] below those limits.
//!
//! Widths and radii are in logical pixels, multiplied by `scale`.

use super::camera3::Camera3;
use super::draw::palette;
use crate::geom3::{Pose3, Shape3Kind, Shape3Ref};
use glam::{Vec2, Vec3, Vec4};
use macroquad::prelude as mq;
use macroquad::prelude::{Color, Mesh, Vertex};
use std::cell::OnceCell;

/// The most indices one chunk holds: a multiple of 3 below the batcher's 5,000.
pub const MAX_CHUNK_INDICES: usize = 4998;
/// The most vertices one chunk holds, below the batcher's 10,000.
pub const MAX_CHUNK_VERTICES: usize = 9999;

/// Round shapes are tessellated with this many segments around their axis and this many
/// rings from pole to pole (a capsule adds its cylinder band): at 1280 x 720 a sphere filling
/// the view shows facets only on its outline.
pub const ROUND_SEGMENTS: usize = 32;
pub const ROUND_RINGS: usize = 16;

/// The light's direction (toward the light): above, in front (+z) and to the right (+x).
/// A box seen from the default three-quarter view gets three distinct tones: top 0.9,
/// front 0.76, right 0.67 of its colour.
const LIGHT: Vec3 = Vec3::new(0.35, 0.85, 0.55);
/// The share of a colour a face gets with the light behind it: faces pointing down or away
/// stay readable.
const AMBIENT: f32 = 0.5;
/// A faint fill light from the opposite side, so that the faces turned away from the key
/// light still show their shape.
const FILL: f32 = 0.1;

/// Edges are pulled toward the eye by this fraction of their depth (plus their own half
/// width), so that they win the depth test against the faces they lie on: 20 times the
/// depth buffer's step at ten distances from the eye.
const EDGE_BIAS_FRACTION: f32 = 2.0e-3;

/// A polyhedron edge between faces whose normals differ by less than this is left out of
/// the outline: a 512-sided prism's side would otherwise be painted solid by its edges.
const FEATURE_EDGE_MIN_DEGREES: f32 = 8.0;

/// Dash and gap length of dashed lines, logical pixels.
const DASH: f32 = 8.0;

/// A body's surface as drawn: flat convex polygons, counter-clockwise seen from outside.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FaceMesh {
    pub faces: Vec<MeshFace>,
    /// The lines that outline the body: a polyhedron's edges, a round shape's seams.
    pub edges: Vec<[Vec3; 2]>,
}

/// One face: its outward unit normal and its corners (a convex polygon, counter-clockwise
/// seen from outside). `normals` holds one smooth normal per corner for round shapes and is
/// empty for a flat face.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshFace {
    pub normal: Vec3,
    pub points: Vec<Vec3>,
    pub normals: Vec<Vec3>,
}

impl MeshFace {
    /// The normal at corner `k`: the smooth one when there is one, else the face's.
    pub fn normal_at(&self, k: usize) -> Vec3 {
        self.normals.get(k).copied().unwrap_or(self.normal)
    }
}

impl FaceMesh {
    /// The world surface of a shape at a pose.
    pub fn of_shape(shape: Shape3Ref<'_>, pose: &Pose3) -> FaceMesh {
        match shape {
            Shape3Ref::Polyhedron(poly) => {
                let faces = (0..poly.face_count())
                    .map(|i| {
                        let face = poly.face(i);
                        MeshFace {
                            normal: (pose.rotation * face.normal).normalize_or_zero(),
                            points: face
                                .vertices
                                .iter()
                                .map(|&v| pose.transform_point(poly.vertex(v as usize)))
                                .collect(),
                            normals: Vec::new(),
                        }
                    })
                    .collect();
                let crease = FEATURE_EDGE_MIN_DEGREES.to_radians().cos();
                let edges = poly
                    .edges()
                    .iter()
                    .filter(|e| {
                        let [f, g] = e.faces.map(|f| poly.face_normal(f as usize));
                        f.dot(g) < crease
                    })
                    .map(|e| {
                        [e.tail, e.head].map(|v| pose.transform_point(poly.vertex(v as usize)))
                    })
                    .collect();
                FaceMesh { faces, edges }
            }
            Shape3Ref::Round(round) => {
                round_mesh(round.half_length(), round.radius(), shape.kind(), pose)
            }
        }
    }

    /// The outline's segments: a polyhedron's real edges (not the triangulation) except
    /// those between nearly coplanar faces (`FEATURE_EDGE_MIN_DEGREES`), a sphere's
    /// equator, a capsule's two seams.
    pub fn feature_edges(&self) -> Vec<[Vec3; 2]> {
        self.edges.clone()
    }

    /// The smallest axis-aligned box holding every corner (`(ZERO, ZERO)` when empty).
    pub fn bounds(&self) -> (Vec3, Vec3) {
        let mut points = self.faces.iter().flat_map(|f| f.points.iter().copied());
        let Some(first) = points.next() else {
            return (Vec3::ZERO, Vec3::ZERO);
        };
        points.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p)))
    }
}

/// One ring of a round shape's profile: the height of the ring's centre above the local
/// origin, its radius, and the normal's (radial, vertical) parts.
#[derive(Clone, Copy, Debug)]
struct Ring {
    y: f32,
    radius: f32,
    normal_radial: f32,
    normal_y: f32,
}

/// The rings of a sphere (half length 0) or a capsule, top pole to bottom pole: the upper
/// hemisphere about (0, h, 0), then the lower one about (0, -h, 0). A sphere's equator is
/// listed once; a capsule's twice, the cylinder band between the two.
fn profile(half_length: f32, radius: f32) -> Vec<Ring> {
    let mut rings = Vec::with_capacity(ROUND_RINGS + 2);
    for k in 0..=ROUND_RINGS {
        // The poles and the equator exactly: the poles' rings have radius 0 and the
        // equator's normal no vertical part (the seams are found by it).
        let (s, c) = match k {
            0 => (0.0, 1.0),
            _ if k == ROUND_RINGS => (0.0, -1.0),
            _ if 2 * k == ROUND_RINGS => (1.0, 0.0),
            _ => (std::f32::consts::PI * k as f32 / ROUND_RINGS as f32).sin_cos(),
        };
        let ring = |centre: f32| Ring {
            y: centre + radius * c,
            radius: radius * s,
            normal_radial: s,
            normal_y: c,
        };
        if 2 * k == ROUND_RINGS && half_length > 0.0 {
            // The upper seam, then the lower one: the cylinder band lies between them.
            rings.push(ring(half_length));
            rings.push(ring(-half_length));
        } else if 2 * k <= ROUND_RINGS {
            rings.push(ring(half_length));
        } else {
            rings.push(ring(-half_length));
        }
    }
    rings
}

/// The tessellated surface of a sphere or capsule, placed by `pose`.
fn round_mesh(half_length: f32, radius: f32, kind: &Shape3Kind, pose: &Pose3) -> FaceMesh {
    let rings = profile(half_length, radius);
    let around: Vec<(f32, f32)> = (0..ROUND_SEGMENTS)
        .map(|j| (std::f32::consts::TAU * j as f32 / ROUND_SEGMENTS as f32).sin_cos())
        .collect();
    let point = |r: &Ring, j: usize| {
        let (s, c) = around[j % ROUND_SEGMENTS];
        let local = Vec3::new(r.radius * c, r.y, r.radius * s);
        let normal = Vec3::new(r.normal_radial * c, r.normal_y, r.normal_radial * s);
        (pose.transform_point(local), pose.rotation * normal)
    };
    let mut faces = Vec::with_capacity((rings.len() - 1) * ROUND_SEGMENTS);
    for pair in rings.windows(2) {
        for j in 0..ROUND_SEGMENTS {
            // Seen from outside with the upper ring on top, angle j + 1 lies to the left of
            // angle j: upper j, upper j + 1, lower j + 1, lower j runs counter-clockwise.
            let corners = [
                (&pair[0], j),
                (&pair[0], j + 1),
                (&pair[1], j + 1),
                (&pair[1], j),
            ];
            let mut face = MeshFace::default();
            for (ring, k) in corners {
                let (p, n) = point(ring, k);
                // A pole ring has one point: keep it once.
                if ring.radius == 0.0 && face.points.last() == Some(&p) {
                    continue;
                }
                face.points.push(p);
                face.normals.push(n);
            }
            face.normal = newell_normal(&face.points);
            faces.push(face);
        }
    }
    let seams: Vec<Ring> = rings
        .iter()
        .copied()
        .filter(|r| r.normal_y == 0.0)
        .collect();
    let edges = seams
        .iter()
        .flat_map(|r| (0..ROUND_SEGMENTS).map(move |j| (*r, j)))
        .map(|(r, j)| [point(&r, j).0, point(&r, j + 1).0])
        .collect();
    debug_assert!(kind.is_round());
    FaceMesh { faces, edges }
}

/// The unit normal of a planar polygon by Newell's method (robust to collinear corners);
/// zero for a degenerate polygon.
fn newell_normal(points: &[Vec3]) -> Vec3 {
    let mut n = Vec3::ZERO;
    for (k, a) in points.iter().enumerate() {
        let b = points[(k + 1) % points.len()];
        n += Vec3::new(
            (a.y - b.y) * (a.z + b.z),
            (a.z - b.z) * (a.x + b.x),
            (a.x - b.x) * (a.y + b.y),
        );
    }
    n.normalize_or_zero()
}

/// A colour lit by the fixed light: ambient plus a diffuse key light plus a faint fill from
/// the opposite side, so that a face turned away from the light keeps at least half its
/// colour. Alpha is kept.
pub fn shade(normal: Vec3, base: Color) -> Color {
    let facing = normal.normalize_or_zero().dot(LIGHT.normalize());
    let k = AMBIENT + (1.0 - AMBIENT) * facing.max(0.0) + FILL * (-facing).max(0.0);
    Color::new(
        (base.r * k).clamp(0.0, 1.0),
        (base.g * k).clamp(0.0, 1.0),
        (base.b * k).clamp(0.0, 1.0),
        base.a.clamp(0.0, 1.0),
    )
}

/// Triangles cut into meshes that each fit one macroquad draw call.
#[derive(Default)]
pub struct Chunks {
    done: Vec<Mesh>,
    vertices: Vec<Vertex>,
    indices: Vec<u16>,
}

impl Chunks {
    /// Adds the triangle fan of a convex polygon (corner 0 with each later pair), splitting
    /// it over chunks when it does not fit.
    pub fn fan(&mut self, corners: &[Vertex]) {
        let n = corners.len();
        let mut k = 1;
        while k + 1 < n {
            let by_index = (MAX_CHUNK_INDICES - self.indices.len()) / 3;
            let by_vertex = MAX_CHUNK_VERTICES.saturating_sub(self.vertices.len() + 2);
            let room = by_index.min(by_vertex);
            if room == 0 {
                self.flush();
                continue;
            }
            let take = room.min(n - 1 - k);
            let base = self.vertices.len() as u16;
            self.vertices.push(corners[0]);
            self.vertices.extend_from_slice(&corners[k..=k + take]);
            for t in 0..take as u16 {
                self.indices.extend([base, base + 1 + t, base + 2 + t]);
            }
            k += take;
        }
    }

    fn flush(&mut self) {
        if !self.indices.is_empty() {
            self.done.push(Mesh {
                vertices: std::mem::take(&mut self.vertices),
                indices: std::mem::take(&mut self.indices),
                texture: None,
            });
        }
    }

    /// Every chunk, the last one closed.
    pub fn finish(mut self) -> Vec<Mesh> {
        self.flush();
        self.done
    }
}

fn vertex(p: Vec3, color: Color) -> Vertex {
    Vertex {
        position: p,
        uv: Vec2::ZERO,
        color: color.into(),
        normal: Vec4::ZERO,
    }
}

/// The faces' triangles shaded in `color` (alpha `alpha`), in chunks. `keep` picks faces.
fn shaded_chunks(
    mesh: &FaceMesh,
    color: Color,
    alpha: f32,
    keep: impl Fn(&MeshFace) -> bool,
) -> Vec<Mesh> {
    let base = palette::with_alpha(color, alpha);
    let mut chunks = Chunks::default();
    let mut corners = Vec::new();
    for face in mesh.faces.iter().filter(|f| keep(f)) {
        corners.clear();
        corners.extend(
            face.points
                .iter()
                .enumerate()
                .map(|(k, &p)| vertex(p, shade(face.normal_at(k), base))),
        );
        chunks.fan(&corners);
    }
    chunks.finish()
}

/// The two materials the default pipeline lacks. Both blend by alpha.
struct Materials {
    /// Depth-tested: translucent surfaces, hidden where an opaque body is in front. Its
    /// `depth_write` is on because miniquad enables the test only with it; its draws go
    /// through `without_depth_writes`.
    translucent: mq::Material,
    /// Neither depth-tested nor writing depth: overlays read through the bodies.
    on_top: mq::Material,
}

const VERTEX_SHADER: &str = "#version 100
attribute vec3 position;
attribute vec4 color0;
uniform mat4 Model;
uniform mat4 Projection;
varying lowp vec4 tint;
void main() {
    tint = color0 / 255.0;
    gl_Position = Projection * Model * vec4(position, 1.0);
}
";

const FRAGMENT_SHADER: &str = "#version 100
varying lowp vec4 tint;
void main() {
    gl_FragColor = tint;
}
";

fn load_materials() -> Option<Materials> {
    use mq::miniquad::{BlendFactor, BlendState, BlendValue, Comparison, Equation, PipelineParams};
    let material = |depth_test: Comparison, depth_write: bool| {
        let params = PipelineParams {
            depth_test,
            depth_write,
            color_blend: Some(BlendState::new(
                Equation::Add,
                BlendFactor::Value(BlendValue::SourceAlpha),
                BlendFactor::OneMinusValue(BlendValue::SourceAlpha),
            )),
            ..Default::default()
        };
        let source = mq::ShaderSource::Glsl {
            vertex: VERTEX_SHADER,
            fragment: FRAGMENT_SHADER,
        };
        mq::load_material(
            source,
            mq::MaterialParams {
                pipeline_params: params,
                ..Default::default()
            },
        )
        .map_err(|e| eprintln!("warning: 3D material not loaded ({e}); drawing without it"))
        .ok()
    };
    Some(Materials {
        translucent: material(Comparison::LessOrEqual, true)?,
        on_top: material(Comparison::Always, false)?,
    })
}

thread_local! {
    /// Made on first use, inside the window's GL context (one context per process).
    static MATERIALS: OnceCell<Option<Materials>> = const { OnceCell::new() };
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// macroquad's default pipeline: depth test and depth write (the camera enables them).
    Opaque,
    Translucent,
    OnTop,
}

/// Draws `meshes` through the pipeline of `pass`, and returns to the default one.
fn draw_chunks(meshes: &[Mesh], pass: Pass) {
    MATERIALS.with(|cell| {
        let materials = cell.get_or_init(load_materials).as_ref();
        let material = match (pass, materials) {
            (Pass::Translucent, Some(m)) => Some(&m.translucent),
            (Pass::OnTop, Some(m)) => Some(&m.on_top),
            _ => None,
        };
        let draw = || {
            if let Some(m) = material {
                mq::gl_use_material(m);
            }
            for mesh in meshes {
                mq::draw_mesh(mesh);
            }
            if material.is_some() {
                mq::gl_use_default_material();
            }
        };
        if pass == Pass::Translucent {
            without_depth_writes(draw);
        } else {
            draw();
        }
    });
}

/// Runs `draw` with depth writes masked off: depth-tested drawing that hides nothing drawn
/// later. macroquad batches draw calls and runs them at its next flush, so the batch is
/// flushed before the mask goes off and again before it comes back on.
fn without_depth_writes(draw: impl FnOnce()) {
    use mq::miniquad::gl::{glDepthMask, GL_FALSE, GL_TRUE};
    // SAFETY: called between frames' begin and end on the thread that owns the GL context
    // (every painter call is); the flush only runs macroquad's queued draw calls, and the
    // mask is restored before returning, so `clear_background` clears depth again.
    unsafe {
        mq::get_internal_gl().flush();
        glDepthMask(GL_FALSE as u8);
    }
    draw();
    unsafe {
        mq::get_internal_gl().flush();
        glDepthMask(GL_TRUE as u8);
    }
}

/// Clears the depth buffer inside `camera`'s viewport only, so that a view drawn there
/// (the A - B inset) is not hidden by the bodies drawn under it. macroquad's own clear
/// covers the whole window; a scissored `glClear` covers the rectangle. The batch is
/// flushed first (its queued triangles belong to the view below); every later draw call
/// sets its own scissor rectangle, so the one set here does not leak.
pub fn clear_depth_in(camera: &Camera3) {
    use mq::miniquad::gl::{glClear, glEnable, glScissor, GL_DEPTH_BUFFER_BIT, GL_SCISSOR_TEST};
    let (x, y, w, h) = camera.gl_viewport(mq::screen_height(), mq::screen_dpi_scale());
    // SAFETY: called while drawing a frame on the thread that owns the GL context, between
    // macroquad's flushes (as `without_depth_writes`); the depth mask is on (it is only
    // ever off inside `without_depth_writes`), so the clear writes.
    unsafe {
        mq::get_internal_gl().flush();
        glEnable(GL_SCISSOR_TEST);
        glScissor(x, y, w, h);
        glClear(GL_DEPTH_BUFFER_BIT);
    }
}

/// Draws 3D primitives through a camera; sizes in logical pixels times `scale`.
#[derive(Clone, Copy, Debug)]
pub struct Painter3 {
    pub camera: Camera3,
    pub scale: f32,
}

/// The visible part of a segment on the screen: its ends' screen points and view depths.
struct ScreenSegment {
    ends: [Vec2; 2],
    depths: [f32; 2],
}

impl Painter3 {
    pub fn new(camera: Camera3, scale: f32) -> Self {
        Painter3 { camera, scale }
    }

    pub fn px(&self, logical: f32) -> f32 {
        logical * self.scale
    }

    /// Starts drawing in the world: the camera's matrix, viewport and depth test, and a
    /// scissor rectangle on the viewport. The viewport alone does not keep a view's lines
    /// inside it (under Xvfb's software renderer a line's quad ran a margin past an inset's
    /// edge); the scissor cuts every fragment outside.
    pub fn begin(&self) {
        mq::set_camera(&self.camera);
        let dpi = mq::screen_dpi_scale();
        let (o, s) = (self.camera.origin * dpi, self.camera.size * dpi);
        let clip = (
            o.x.round() as i32,
            o.y.round() as i32,
            s.x.round() as i32,
            s.y.round() as i32,
        );
        // SAFETY: macroquad's internal GL context is only used from the drawing thread,
        // between frames' draw calls (as `canvas::clip_to` does for the plane).
        unsafe { mq::get_internal_gl() }.quad_gl.scissor(Some(clip));
    }

    /// Back to macroquad's screen camera (no viewport, no depth test, no scissor).
    pub fn end(&self) {
        // SAFETY: as in `begin`.
        unsafe { mq::get_internal_gl() }.quad_gl.scissor(None);
        mq::set_default_camera();
    }

    /// An opaque body, depth-tested, shaded by [`shade`].
    pub fn solid(&self, mesh: &FaceMesh, color: Color) {
        draw_chunks(&shaded_chunks(mesh, color, 1.0, |_| true), Pass::Opaque);
    }

    /// A see-through body: depth-tested against what is drawn, writing no depth. Faces
    /// turned away from the eye go first, so a convex body blends right without sorting.
    /// Draw it after the opaque bodies.
    pub fn translucent(&self, mesh: &FaceMesh, color: Color, alpha: f32) {
        let camera = self.camera;
        let front = move |f: &MeshFace| {
            let toward_eye = match camera.orthographic {
                true => -camera.forward(),
                false => camera.eye() - f.points.first().copied().unwrap_or_default(),
            };
            f.normal.dot(toward_eye) > 0.0
        };
        draw_chunks(
            &shaded_chunks(mesh, color, alpha, |f| !front(f)),
            Pass::Translucent,
        );
        draw_chunks(&shaded_chunks(mesh, color, alpha, front), Pass::Translucent);
    }

    /// The part of `a..b` in front of the near plane, on the screen; `None` when none of it
    /// is, or when it is a point on the screen.
    fn screen_segment(&self, a: Vec3, b: Vec3) -> Option<ScreenSegment> {
        let c = &self.camera;
        // A little beyond the near plane, so that the ends project finitely.
        let near = c.near_plane() * 1.5;
        let (da, db) = (c.depth_of(a), c.depth_of(b));
        if (da < near && db < near) || !(a.is_finite() && b.is_finite()) {
            return None;
        }
        let cut = |p: Vec3, dp: f32, q: Vec3, dq: f32| {
            if dp >= near {
                (p, dp)
            } else {
                (p + (q - p) * ((near - dp) / (dq - dp)), near)
            }
        };
        let (a, da) = cut(a, da, b, db);
        let (b, db) = cut(b, db, a, da);
        let ends = [c.to_screen(a)?, c.to_screen(b)?];
        ((ends[1] - ends[0]).length() > 1.0e-4).then_some(ScreenSegment {
            ends,
            depths: [da, db],
        })
    }

    /// The quad of a segment `width_px` wide (square ends), its corners pulled `bias` world
    /// units toward the eye; corner colours `colors` at the two ends.
    fn segment_quad(
        &self,
        s: &ScreenSegment,
        width_px: f32,
        bias: f32,
        colors: [Color; 2],
    ) -> [Vertex; 4] {
        let dir = (s.ends[1] - s.ends[0]).normalize();
        let half = 0.5 * width_px.max(0.5);
        let side = Vec2::new(-dir.y, dir.x) * half;
        let [a, b] = [s.ends[0] - dir * half, s.ends[1] + dir * half];
        let at = |p: Vec2, end: usize| {
            let depth = s.depths[end];
            let pull = bias * EDGE_BIAS_FRACTION * depth.abs()
                + bias * half
                    / self
                        .camera
                        .pixels_per_unit_at(self.camera.point_at(p, depth));
            vertex(self.camera.point_at(p, depth - pull), colors[end])
        };
        [
            at(a + side, 0),
            at(a - side, 0),
            at(b - side, 1),
            at(b + side, 1),
        ]
    }

    /// Adds segment `a..b` to `chunks`; `bias` 0 for plain lines, 1 for edges on faces.
    fn push_line(
        &self,
        chunks: &mut Chunks,
        ends: [Vec3; 2],
        width: f32,
        colors: [Color; 2],
        bias: f32,
    ) {
        if let Some(s) = self.screen_segment(ends[0], ends[1]) {
            chunks.fan(&self.segment_quad(&s, self.px(width), bias, colors));
        }
    }

    /// A segment `width` logical pixels wide at every depth, depth-tested.
    pub fn line(&self, a: Vec3, b: Vec3, width: f32, color: Color) {
        let mut chunks = Chunks::default();
        self.push_line(&mut chunks, [a, b], width, [color; 2], 0.0);
        draw_chunks(&chunks.finish(), Pass::Opaque);
    }

    /// A segment drawn over everything (for overlay lines read through a body).
    pub fn line_on_top(&self, a: Vec3, b: Vec3, width: f32, color: Color) {
        let mut chunks = Chunks::default();
        self.push_line(&mut chunks, [a, b], width, [color; 2], 0.0);
        draw_chunks(&chunks.finish(), Pass::OnTop);
    }

    /// A dashed segment, dashes and gaps about `DASH` logical pixels on the screen.
    pub fn dashed(&self, a: Vec3, b: Vec3, width: f32, color: Color) {
        let Some(s) = self.screen_segment(a, b) else {
            return;
        };
        let length = (s.ends[1] - s.ends[0]).length();
        let count = ((length / self.px(2.0 * DASH)).round() as usize).clamp(1, 4096);
        let mut chunks = Chunks::default();
        for k in 0..count {
            let t0 = k as f32 / count as f32;
            let t1 = (k as f32 + 0.5) / count as f32;
            self.push_line(
                &mut chunks,
                [a.lerp(b, t0), a.lerp(b, t1)],
                width,
                [color; 2],
                0.0,
            );
        }
        draw_chunks(&chunks.finish(), Pass::Opaque);
    }

    /// A line from `from` ending in a screen-facing head at `to`, the head sized in pixels.
    pub fn arrow(&self, from: Vec3, to: Vec3, width: f32, color: Color) {
        let Some(s) = self.screen_segment(from, to) else {
            return;
        };
        let screen_length = (s.ends[1] - s.ends[0]).length();
        let head = self.px(9.0 + 2.5 * width).min(0.5 * screen_length);
        let shaft_end = from.lerp(to, 1.0 - head / screen_length);
        let mut chunks = Chunks::default();
        self.push_line(&mut chunks, [from, shaft_end], width, [color; 2], 0.0);
        let dir = (s.ends[1] - s.ends[0]) / screen_length;
        let base = s.ends[1] - dir * head;
        let side = Vec2::new(-dir.y, dir.x) * head * 0.45;
        let depth = s.depths[1];
        let corner = |p: Vec2| vertex(self.camera.point_at(p, depth), color);
        chunks.fan(&[corner(s.ends[1]), corner(base + side), corner(base - side)]);
        draw_chunks(&chunks.finish(), Pass::Opaque);
    }

    /// A screen-facing disc `radius` logical pixels across, drawn over everything.
    pub fn dot(&self, p: Vec3, radius: f32, color: Color) {
        let c = &self.camera;
        let depth = c.depth_of(p);
        let Some(centre) = c.to_screen(p).filter(|_| depth > c.near_plane()) else {
            return;
        };
        let r = self.px(radius);
        let corners: Vec<Vertex> = (0..20)
            .map(|k| {
                let (s, co) = (std::f32::consts::TAU * k as f32 / 20.0).sin_cos();
                vertex(c.point_at(centre + Vec2::new(co, s) * r, depth), color)
            })
            .collect();
        let mut chunks = Chunks::default();
        chunks.fan(&corners);
        draw_chunks(&chunks.finish(), Pass::OnTop);
    }

    /// A filled convex polygon, both sides visible; see-through (writing no depth) when
    /// `color.a < 1`.
    pub fn polygon(&self, points: &[Vec3], color: Color) {
        let mut chunks = Chunks::default();
        let corners: Vec<Vertex> = points.iter().map(|&p| vertex(p, color)).collect();
        chunks.fan(&corners);
        let pass = if color.a < 1.0 {
            Pass::Translucent
        } else {
            Pass::Opaque
        };
        draw_chunks(&chunks.finish(), pass);
    }

    /// The mesh's outline ([`FaceMesh::feature_edges`]), pulled toward the eye so that the
    /// edges lying on visible faces are not lost to them in the depth test.
    pub fn edges(&self, mesh: &FaceMesh, width: f32, color: Color) {
        let mut chunks = Chunks::default();
        for e in &mesh.edges {
            self.push_line(&mut chunks, *e, width, [color; 2], 1.0);
        }
        draw_chunks(&chunks.finish(), Pass::Opaque);
    }

    /// A ground grid on the plane `y`, `spacing` apart, `half_extent_cells` cells each way
    /// from the point below the camera's target (snapped to the major lines, every 5th),
    /// fading toward its rim. The world x and z axes are tinted red and blue.
    pub fn grid(&self, y: f32, spacing: f32, half_extent_cells: i32) {
        if !(spacing > 0.0 && spacing.is_finite()) || half_extent_cells <= 0 {
            return;
        }
        let major = 5.0 * spacing;
        let t = self.camera.target;
        let centre = Vec3::new(
            (t.x / major).round() * major,
            y,
            (t.z / major).round() * major,
        );
        let n = half_extent_cells;
        let extent = n as f32 * spacing;
        let pieces = (2 * n).min(16);
        let mut chunks = Chunks::default();
        for axis in [Vec3::X, Vec3::Z] {
            let across = if axis == Vec3::X { Vec3::Z } else { Vec3::X };
            for i in -n..=n {
                let offset = i as f32 * spacing;
                let line_at = centre + across * offset;
                let index = (line_at.dot(across) / spacing).round() as i64;
                let (color, width) = grid_line_style(index, across);
                for k in 0..pieces {
                    let t0 = -1.0 + 2.0 * k as f32 / pieces as f32;
                    let t1 = -1.0 + 2.0 * (k + 1) as f32 / pieces as f32;
                    let fade = |t: f32| {
                        let r = (t * t + (offset / extent).powi(2)).sqrt();
                        palette::with_alpha(color, color.a * (1.0 - r * r).max(0.0))
                    };
                    let ends = [
                        line_at + axis * (t0 * extent),
                        line_at + axis * (t1 * extent),
                    ];
                    self.push_line(&mut chunks, ends, width, [fade(t0), fade(t1)], 0.0);
                }
            }
        }
        draw_chunks(&chunks.finish(), Pass::Translucent);
    }

    /// The axis triad: x red, y green, z blue, as the camera sees them, centred on
    /// `corner_px` (screen coordinates), `length` logical pixels long, with letters. It
    /// draws with macroquad's screen camera and leaves it set.
    pub fn axis_triad(&self, corner_px: Vec2, length: f32) {
        mq::set_default_camera();
        let c = &self.camera;
        let axes = [
            (Vec3::X, "x", palette::RESULT),
            (Vec3::Y, "y", palette::BODY_B),
            (Vec3::Z, "z", palette::BODY_A),
        ];
        let mut order: Vec<_> = axes.iter().collect();
        // Far first: an axis pointing away from the eye is drawn under the others.
        order.sort_by(|a, b| b.0.dot(c.forward()).total_cmp(&a.0.dot(c.forward())));
        let font = self.px(15.0);
        for (axis, name, color) in order {
            let dir = Vec2::new(c.right().dot(*axis), -c.up().dot(*axis));
            let tip = corner_px + dir * self.px(length);
            mq::draw_line(corner_px.x, corner_px.y, tip.x, tip.y, self.px(2.0), *color);
            let size = mq::measure_text(name, None, font as u16, 1.0);
            let at = corner_px + dir * (self.px(length) + 0.7 * font);
            let at = at + Vec2::new(-0.5 * size.width, 0.5 * size.offset_y);
            mq::draw_text(name, at.x, at.y, font, *color);
        }
        mq::draw_circle(corner_px.x, corner_px.y, self.px(2.5), palette::AXIS);
    }
}

/// A grid line's colour and width (logical pixels) by its index from the world origin:
/// the axes tinted, every 5th line major.
fn grid_line_style(index: i64, across: Vec3) -> (Color, f32) {
    if index == 0 {
        // The line at across = 0 runs along the other axis: z = 0 is the x axis.
        let tint = if across == Vec3::Z {
            palette::RESULT
        } else {
            palette::BODY_A
        };
        (palette::with_alpha(tint, 0.7), 1.5)
    } else if index % 5 == 0 {
        (palette::GRID_MAJOR, 1.25)
    } else {
        (palette::GRID_MINOR, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom3::Shape3;

    fn mesh_of(kind: Shape3Kind, pose: Pose3) -> FaceMesh {
        FaceMesh::of_shape(Shape3::new(&kind).unwrap().as_ref(), &pose)
    }

    fn posed() -> Pose3 {
        Pose3::from_degrees(Vec3::new(1.0, -2.0, 0.5), Vec3::new(20.0, 35.0, -10.0))
    }

    fn assert_chunks_fit(meshes: &[Mesh], triangles: usize) {
        let mut total = 0;
        for m in meshes {
            assert!(m.indices.len() <= MAX_CHUNK_INDICES && m.indices.len() % 3 == 0);
            assert!(m.vertices.len() <= MAX_CHUNK_VERTICES);
            assert!(m.indices.iter().all(|&i| (i as usize) < m.vertices.len()));
            total += m.indices.len() / 3;
        }
        assert_eq!(total, triangles);
    }

    fn triangle_count(mesh: &FaceMesh) -> usize {
        mesh.faces.iter().map(|f| f.points.len() - 2).sum()
    }

    #[test]
    fn a_cuboid_has_six_faces_and_twelve_feature_edges() {
        let mesh = mesh_of(
            Shape3Kind::Cuboid {
                half_extents: Vec3::new(1.0, 0.5, 2.0),
            },
            posed(),
        );
        assert_eq!(mesh.faces.len(), 6);
        assert_eq!(mesh.feature_edges().len(), 12);
        assert!(mesh.faces.iter().all(|f| f.points.len() == 4));
        let centre = posed().position;
        for f in &mesh.faces {
            assert!((newell_normal(&f.points) - f.normal).length() < 1e-5);
            assert!(f.normal.dot(f.points[0] - centre) > 0.0);
        }
    }

    #[test]
    fn every_round_face_points_outward_and_winds_counter_clockwise() {
        let pose = posed();
        for (kind, half) in [
            (Shape3Kind::Sphere { radius: 1.5 }, 0.0),
            (
                Shape3Kind::Capsule {
                    half_length: 2.0,
                    radius: 0.5,
                },
                2.0,
            ),
        ] {
            let mesh = mesh_of(kind, pose);
            let bands = if half > 0.0 {
                ROUND_RINGS + 1
            } else {
                ROUND_RINGS
            };
            assert_eq!(mesh.faces.len(), bands * ROUND_SEGMENTS);
            for f in &mesh.faces {
                assert!(f.points.len() == 3 || f.points.len() == 4);
                assert_eq!(f.normals.len(), f.points.len());
                let centre = f.points.iter().copied().sum::<Vec3>() / f.points.len() as f32;
                let local = pose.inverse_transform_point(centre);
                let core = pose.transform_point(Vec3::new(0.0, local.y.clamp(-half, half), 0.0));
                assert!(f.normal.dot(centre - core) > 0.0, "{f:?}");
                assert!(f.normals.iter().all(|n| n.dot(f.normal) > 0.8));
            }
        }
    }

    #[test]
    fn round_shapes_are_closed() {
        // Every edge of a closed surface is shared by two faces running it opposite ways.
        let mesh = mesh_of(
            Shape3Kind::Capsule {
                half_length: 1.0,
                radius: 0.7,
            },
            Pose3::default(),
        );
        let key = |p: Vec3| (p * 1.0e4).round().as_ivec3().to_array();
        let mut directed = std::collections::HashMap::new();
        for f in &mesh.faces {
            for k in 0..f.points.len() {
                let e = (key(f.points[k]), key(f.points[(k + 1) % f.points.len()]));
                *directed.entry(e).or_insert(0) += 1;
            }
        }
        for (&(a, b), &count) in &directed {
            assert_eq!(count, 1);
            assert_eq!(
                directed.get(&(b, a)),
                Some(&1),
                "edge {a:?} -> {b:?} is open"
            );
        }
        assert_eq!(mesh.feature_edges().len(), 2 * ROUND_SEGMENTS);
    }

    #[test]
    fn big_meshes_are_cut_into_chunks_the_batcher_takes() {
        let prism = mesh_of(
            Shape3Kind::Prism {
                sides: 512,
                radius: 1.0,
                half_height: 1.0,
            },
            posed(),
        );
        assert_eq!(prism.faces.len(), 514);
        // The caps' rims only: neighbouring sides differ by 0.7 degrees.
        assert_eq!(prism.feature_edges().len(), 2 * 512);
        let chunks = shaded_chunks(&prism, palette::BODY_A, 1.0, |_| true);
        assert!(chunks.len() >= 2);
        assert_chunks_fit(&chunks, triangle_count(&prism));
        let points: Vec<Vec3> = (0..256)
            .map(|i| {
                let t = i as f32 * 2.399_963;
                let y = 1.0 - 2.0 * (i as f32 + 0.5) / 256.0;
                let r = (1.0 - y * y).sqrt();
                Vec3::new(r * t.cos(), y, r * t.sin())
            })
            .collect();
        let hull = mesh_of(Shape3Kind::Hull { points }, Pose3::default());
        let chunks = shaded_chunks(&hull, palette::BODY_B, 0.5, |_| true);
        assert_chunks_fit(&chunks, triangle_count(&hull));
    }

    #[test]
    fn a_fan_larger_than_a_chunk_is_split() {
        let corners: Vec<Vertex> = (0..4000)
            .map(|k| {
                vertex(
                    Vec3::new((k as f32).cos(), 0.0, (k as f32).sin()),
                    palette::TEXT,
                )
            })
            .collect();
        let mut chunks = Chunks::default();
        chunks.fan(&corners);
        chunks.fan(&corners[..3]);
        let meshes = chunks.finish();
        assert_chunks_fit(&meshes, 3998 + 1);
        assert!(meshes.len() >= 3);
    }

    #[test]
    fn shade_stays_in_range_and_lights_the_top() {
        let base = palette::BODY_A;
        for n in [
            Vec3::Y,
            -Vec3::Y,
            Vec3::X,
            -Vec3::Z,
            Vec3::ZERO,
            Vec3::new(3.0, 4.0, -2.0),
        ] {
            let c = shade(n, Color::new(1.0, 1.0, 1.0, 0.5));
            for v in [c.r, c.g, c.b, c.a] {
                assert!((0.0..=1.0).contains(&v));
            }
            assert_eq!(c.a, 0.5);
        }
        let top = shade(Vec3::Y, base);
        let bottom = shade(-Vec3::Y, base);
        assert!(top.b > bottom.b && bottom.b > 0.4 * base.b);
    }

    #[test]
    fn bounds_hold_every_corner() {
        let mesh = mesh_of(
            Shape3Kind::Sphere { radius: 2.0 },
            Pose3::new(Vec3::new(1.0, 2.0, 3.0), Default::default()),
        );
        let (lo, hi) = mesh.bounds();
        assert!((lo - Vec3::new(-1.0, 0.0, 1.0)).abs().max_element() < 1e-4);
        assert!((hi - Vec3::new(3.0, 4.0, 5.0)).abs().max_element() < 1e-4);
        assert_eq!(FaceMesh::default().bounds(), (Vec3::ZERO, Vec3::ZERO));
    }

    #[test]
    fn lines_keep_their_pixel_width_at_every_depth() {
        let camera = Camera3::default();
        let painter = Painter3::new(camera, 2.0);
        let (a, b) = (Vec3::new(-3.0, 0.0, -4.0), Vec3::new(2.0, 1.0, 3.0));
        let s = painter.screen_segment(a, b).unwrap();
        let quad = painter.segment_quad(&s, painter.px(3.0), 0.0, [palette::TEXT; 2]);
        let screen: Vec<Vec2> = quad
            .iter()
            .map(|v| camera.to_screen(v.position).unwrap())
            .collect();
        assert!(((screen[0] - screen[1]).length() - 6.0).abs() < 1e-2);
        assert!(((screen[2] - screen[3]).length() - 6.0).abs() < 1e-2);
        // Half a segment behind the eye is cut at the near plane.
        let behind = camera.eye() - camera.forward() * 5.0;
        let cut = painter.screen_segment(behind, camera.target).unwrap();
        assert!(cut.ends.iter().all(|p| p.is_finite()));
        assert!(painter.screen_segment(behind, behind + Vec3::X).is_none());
    }
}
