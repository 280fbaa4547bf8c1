// The browser build's test: serves web/dist/ on 127.0.0.1, opens it in Debian's headless
// Chromium through playwright-core, and checks what a student would see:
//   1. the welcome scene draws: the bodies' colours are on the canvas where the window's
//      own state (published to the page with `?test`) says the bodies are, and not far away;
//   2. a drag moves a body by the distance dragged;
//   3. Share link puts the moved scene in the address bar, Copy copies it, and the link
//      opens the same scene in a fresh page;
//   4. a corrupted link shows the error text over the welcome scene; so does a link whose
//      scene is invalid (with its line and column);
//   5. files: File > Open's picker opens a scene (and a bad one shows its error), Save
//      downloads the scene, the Screenshot downloads a PNG, a dropped .ron opens;
//   6. View > Scan runs a scan over frames, and "go after" moves the body across a flip;
//   7. a 3D scene opens from a link (made here with Node's own zlib: an independent encoder);
//   8. a lesson's link opens the lesson: its Notes panel, its timeline step, and Next.
// It prints the time to the first frame and the frames per second while dragging, and
// writes screenshots to target/web-test/ to look at.
//
// Run: scripts/build-web.sh, then (in tests/web) npm ci && node browser-test.mjs.
// Environment: CHROMIUM (default /usr/bin/chromium), COLLISION_LAB_WEB_DIST (web/dist).

import { chromium } from "playwright-core";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const dist = path.resolve(process.env.COLLISION_LAB_WEB_DIST || path.join(root, "web/dist"));
const shots = path.join(root, "target/web-test");
fs.mkdirSync(shots, { recursive: true });

const TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".wasm": "application/wasm",
};

function serve() {
    const server = http.createServer((req, res) => {
        const url = new URL(req.url, "http://127.0.0.1");
        const name = url.pathname === "/" ? "index.html" : url.pathname.slice(1);
        const file = path.join(dist, path.normalize(name));
        if (!file.startsWith(dist) || !fs.existsSync(file)) {
            res.writeHead(404);
            res.end("not found");
            return;
        }
        res.writeHead(200, { "Content-Type": TYPES[path.extname(file)] || "application/octet-stream" });
        fs.createReadStream(file).pipe(res);
    });
    return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

let failures = 0;
function check(ok, what, detail = "") {
    console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail ? ": " + detail : ""}`);
    if (!ok) failures += 1;
}

// ---- PNG decoding (8-bit RGB or RGBA, as Chromium's screenshots are) -------------------

function decodePng(buffer) {
    let offset = 8;
    let width = 0, height = 0, channels = 0;
    const data = [];
    while (offset < buffer.length) {
        const length = buffer.readUInt32BE(offset);
        const type = buffer.toString("ascii", offset + 4, offset + 8);
        const body = buffer.subarray(offset + 8, offset + 8 + length);
        if (type === "IHDR") {
            width = body.readUInt32BE(0);
            height = body.readUInt32BE(4);
            const colorType = body[9];
            channels = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
            if (body[8] !== 8 || channels === 0 || body[12] !== 0) {
                throw new Error(`unexpected PNG format (depth ${body[8]}, colour type ${colorType})`);
            }
        } else if (type === "IDAT") {
            data.push(body);
        }
        offset += 12 + length;
    }
    const raw = zlib.inflateSync(Buffer.concat(data));
    const stride = width * channels;
    const pixels = Buffer.alloc(width * height * 3);
    let previous = Buffer.alloc(stride);
    for (let y = 0; y < height; y++) {
        const filter = raw[y * (stride + 1)];
        const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
        for (let i = 0; i < stride; i++) {
            const a = i >= channels ? line[i - channels] : 0;
            const b = previous[i];
            const c = i >= channels ? previous[i - channels] : 0;
            let add = 0;
            if (filter === 1) add = a;
            else if (filter === 2) add = b;
            else if (filter === 3) add = (a + b) >> 1;
            else if (filter === 4) {
                const p = a + b - c;
                const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
                add = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
            }
            line[i] = (line[i] + add) & 255;
        }
        for (let x = 0; x < width; x++) {
            for (let k = 0; k < 3; k++) pixels[(y * width + x) * 3 + k] = line[x * channels + k];
        }
        previous = line;
    }
    return { width, height, pixels };
}

/** Pixels within `tolerance` (RGB distance) of `colour` in the square of half-side `half`
 * around page point (cx, cy). */
function countColour(image, cx, cy, half, colour, tolerance = 60) {
    let n = 0;
    for (let y = Math.max(0, Math.round(cy - half)); y < Math.min(image.height, cy + half); y++) {
        for (let x = Math.max(0, Math.round(cx - half)); x < Math.min(image.width, cx + half); x++) {
            const i = (y * image.width + x) * 3;
            const d = Math.hypot(image.pixels[i] - colour[0], image.pixels[i + 1] - colour[1],
                image.pixels[i + 2] - colour[2]);
            if (d < tolerance) n++;
        }
    }
    return n;
}

/** The mean colour of the square of half-side `half` around page point (cx, cy). */
function meanColour(image, cx, cy, half) {
    const sum = [0, 0, 0];
    let n = 0;
    for (let y = Math.round(cy - half); y <= Math.round(cy + half); y++) {
        for (let x = Math.round(cx - half); x <= Math.round(cx + half); x++) {
            const i = (y * image.width + x) * 3;
            for (let k = 0; k < 3; k++) sum[k] += image.pixels[i + k];
            n++;
        }
    }
    return sum.map((v) => v / n);
}

function hex(colour) {
    return [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
}

// ---- the page -----------------------------------------------------------------------------

async function state(page) {
    const text = await page.evaluate(() => window.collisionLabState);
    return text ? JSON.parse(text) : null;
}

/** Waits until the window's state satisfies `ready` (or fails after `seconds`). */
async function waitState(page, ready, seconds = 60) {
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
        const s = await state(page);
        if (s && ready(s)) return s;
        await page.waitForTimeout(100);
    }
    throw new Error("the window never reached the state waited for; last: " +
        JSON.stringify(await state(page))?.slice(0, 400));
}

/** Canvas pixels per CSS pixel (1: the page's canvas stays in CSS pixels, whatever the
 * display's devicePixelRatio; see `high_dpi` in window.rs). */
async function canvasScale(page) {
    return page.evaluate(() => {
        const c = document.getElementById("glcanvas");
        return c.width / c.clientWidth;
    });
}

/** The state once it stops changing (two reads 300 ms apart agree): every input sent has
 * been handled, however slow the frames are on a loaded machine. */
async function waitSettled(page, seconds = 30) {
    const end = Date.now() + seconds * 1000;
    let last = JSON.stringify(await state(page));
    while (Date.now() < end) {
        await page.waitForTimeout(300);
        const now = JSON.stringify(await state(page));
        if (now === last) return JSON.parse(now);
        last = now;
    }
    throw new Error("the window's state never settled");
}

/** Page coordinates of a canvas pixel (the window's own coordinates). */
async function toPage(page, [x, y]) {
    const box = await page.locator("#glcanvas").boundingBox();
    const k = await canvasScale(page);
    return [box.x + x / k, box.y + y / k];
}

/** Where a 2D world point is drawn, in canvas pixels (the 2D camera's `to_screen`). */
function worldToCanvas(s, [wx, wy]) {
    const [ox, oy, w, h] = s.canvas;
    const { center, zoom } = s.camera;
    return [ox + w / 2 + (wx - center[0]) * zoom, oy + h / 2 - (wy - center[1]) * zoom];
}

async function open(browser, url, deviceScaleFactor = 1) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor });
    const messages = [];
    page.on("console", (m) => messages.push(m.text()));
    page.on("pageerror", (e) => messages.push("page error: " + e.message));
    page.messages = messages;
    const start = Date.now();
    await page.goto(url);
    page.state = await waitState(page, (s) => s.bodies && s.bodies.length > 0);
    page.loadSeconds = (Date.now() - start) / 1000;
    return page;
}

/** A link made the way collision-lab makes them, by Node's zlib instead of miniz. */
function nodeLink(base, text) {
    return base + "#s1=" + zlib.deflateSync(Buffer.from(text, "utf8"), { level: 9 }).toString("base64url");
}

async function main() {
    const server = await serve();
    const base = `http://127.0.0.1:${server.address().port}/?test`;
    const browser = await chromium.launch({
        executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
        args: [
            "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run", "--disable-quic",
        ],
    });
    try {
        await welcomeDrawsAndDrags(browser, base, 1);
        // A display with two device pixels per CSS pixel, as many laptops have.
        await welcomeDrawsAndDrags(browser, base, 2);
        await files(browser, base);
        await scanWindow(browser, base);
        await corruptedLinks(browser, base);
        await threeD(browser, base);
        await lesson(browser, base);
    } finally {
        await browser.close();
        server.close();
    }
    if (failures > 0) {
        console.log(`${failures} check(s) failed`);
        process.exit(1);
    }
    console.log("all browser checks passed");
}

async function welcomeDrawsAndDrags(browser, base, dpr) {
    console.log(`-- at devicePixelRatio ${dpr}`);
    const page = await open(browser, base, dpr);
    let s = page.state;
    const firstFrameMs = await page.evaluate(() => window.collisionLabFirstState);
    console.log(`time to first frame: ${(firstFrameMs / 1000).toFixed(2)} s after navigation ` +
        `(page ready in ${page.loadSeconds.toFixed(2)} s)`);
    check(s.title.includes("welcome"), "the welcome scene opens", s.title);
    check(s.load_error === null, "no error", String(s.load_error));
    await page.waitForTimeout(500);
    s = await state(page);

    // 1. The bodies' colours where the state says the bodies are.
    const image = decodePng(await page.screenshot({ path: path.join(shots, `welcome-dpr${dpr}.png`) }));
    const body = (name) => s.bodies.find((b) => b.name === name);
    const colours = { hexagon: "#3b82f6", quad: "#22c55e", ball: "#f59e0b", pill: "#a855f7" };
    const perCss = await canvasScale(page);
    // The screenshot has `dpr` pixels per CSS pixel.
    const inShot = ([x, y]) => [x * dpr, y * dpr];
    for (const [name, colour] of Object.entries(colours)) {
        const [px, py] = inShot(await toPage(page, worldToCanvas(s, body(name).position)));
        // Inside the body: its outline is within 1.8 units of its centre for these four.
        const half = (1.8 * s.camera.zoom * dpr) / perCss;
        const n = countColour(image, px, py, half, hex(colour));
        check(n >= 40, `${name}'s colour is drawn where the state puts it`, `${n} pixels near (${px.toFixed(0)}, ${py.toFixed(0)})`);
    }
    // The fills are as strong as on the desktop: the page must not show through the
    // canvas where the picture is translucent (see `Platform::finish_frame`). Inside the
    // hexagon, away from its marks, the fill is a clear blue, about (206, 222, 244);
    // washed out by the page it was (249, 255, 255).
    const [fx, fy] = inShot(await toPage(page, worldToCanvas(s, [-1.9, 0.9])));
    const fill = meanColour(image, fx, fy, 3);
    check(fill[2] - fill[0] > 20, "the fills are as strong as on the desktop",
        `mean colour (${fill.map((v) => v.toFixed(0))}) inside the hexagon`);
    const [ex, ey] = inShot(await toPage(page, [s.canvas[0] + 50, s.canvas[1] + s.canvas[3] - 50]));
    const stray = countColour(image, ex, ey, 30 * dpr, hex(colours.hexagon));
    check(stray < 5, "and not in an empty corner of the canvas", `${stray} pixels`);

    // 2. A drag moves the quad by the distance dragged.
    const before = body("quad").position;
    const grab = [before[0] + 0.5, before[1]];
    const [gx, gy] = await toPage(page, worldToCanvas(s, grab));
    const [dx, dy] = [120, -60];
    const frames0 = await page.evaluate(() => window.collisionLabStates);
    const t0 = Date.now();
    await page.mouse.move(gx, gy);
    await page.mouse.down();
    // Moves sent as fast as the page takes them for three seconds, back and forth, then
    // to the end point: every frame then has a new pointer position, so the states
    // published (one per frame that shows something new) count the frames drawn.
    let moves = 0;
    while (Date.now() - t0 < 3000) {
        const f = (moves % 40) / 40;
        await page.mouse.move(gx + dx * f, gy + dy * f);
        moves++;
    }
    const seconds = (Date.now() - t0) / 1000;
    const frames = (await page.evaluate(() => window.collisionLabStates)) - frames0;
    await page.mouse.move(gx + dx, gy + dy, { steps: 4 });
    await page.mouse.up();
    s = await waitSettled(page);
    const after = s.bodies.find((b) => b.name === "quad").position;
    const want = [before[0] + (dx * perCss) / s.camera.zoom, before[1] - (dy * perCss) / s.camera.zoom];
    const off = Math.hypot(after[0] - want[0], after[1] - want[1]);
    check(off < 0.05, "a drag moves the quad by the distance dragged",
        `from (${before.map((v) => v.toFixed(3))}) to (${after.map((v) => v.toFixed(3))}), wanted (${want.map((v) => v.toFixed(3))})`);
    console.log(`frames while dragging: ${frames} in ${seconds.toFixed(2)} s = ` +
        `${(frames / seconds).toFixed(1)} per second (${moves} pointer moves sent)`);
    check(s.dirty === true, "the scene is marked unsaved after the drag");
    if (dpr !== 1) {
        await page.close();
        return;
    }

    // 3. Share link: the button, the address bar, Copy, and the link in a fresh page.
    const [bx, by] = await toPage(page, center(s.widgets["menu:share-button"]));
    await page.mouse.click(bx, by);
    s = await waitState(page, (x) => x.share, 30);
    const hash = await page.evaluate(() => window.location.hash);
    check(hash.startsWith("#s1="), "Share link puts the scene in the address bar", hash.slice(0, 40) + "…");
    check(s.share.endsWith(hash), "the link shown is the address bar's", s.share.slice(0, 60) + "…");
    const historyLength = await page.evaluate(() => window.history.length);
    await waitState(page, (x) => x.widgets["share:copy"], 30);
    // A new egui window ignores clicks while it appears: click once it stands still.
    s = await waitSettled(page);
    const [cx, cy] = await toPage(page, center(s.widgets["share:copy"]));
    await page.mouse.click(cx, cy);
    // The click is handled in the next frame, which may take a while on a loaded machine.
    const copied = await page
        .waitForFunction(() => window.collisionLabCopied, null, { timeout: 20000 })
        .then((h) => h.jsonValue())
        .catch(() => undefined);
    check(copied === s.share, "Copy copies the link",
        copied === undefined ? `nothing copied; status ${(await state(page)).status}` : "");
    await page.screenshot({ path: path.join(shots, "share-dialog.png") });
    check(historyLength <= 2, "sharing replaced the history entry instead of adding one", `history length ${historyLength}`);

    const again = await open(browser, s.share.replace(/^[^#]*/, base));
    const reopened = again.state.bodies.find((b) => b.name === "quad").position;
    check(Math.hypot(reopened[0] - after[0], reopened[1] - after[1]) < 1e-4,
        "the link opens the moved scene", `quad at (${reopened.map((v) => v.toFixed(4))})`);
    check(again.state.load_error === null, "with no error", String(again.state.load_error));
    check(JSON.stringify(again.state.overlays) === JSON.stringify(s.overlays), "and the same overlays");
    await again.screenshot({ path: path.join(shots, "from-link.png") });
    await again.close();
    await page.close();
}

/** Opens the File menu and clicks `entry` (a widget the window notes for its tests). */
async function fileMenu(page, entry) {
    let s = await waitState(page, (x) => x.widgets["menu:file"], 30);
    const [mx, my] = await toPage(page, center(s.widgets["menu:file"]));
    await page.mouse.click(mx, my);
    await waitState(page, (x) => x.widgets[entry], 30);
    s = await waitSettled(page);
    const [ex, ey] = await toPage(page, center(s.widgets[entry]));
    await page.mouse.click(ex, ey);
}

async function files(browser, base) {
    const page = await open(browser, base);
    const scene = path.join(root, "scenes/clip_two_points.ron");
    // File > Open: the page's file picker, answered with a scene file.
    const [chooser] = await Promise.all([
        page.waitForEvent("filechooser", { timeout: 60000 }),
        fileMenu(page, "menu:open"),
    ]);
    await chooser.setFiles(scene);
    let s = await waitState(page, (x) => x.title.startsWith("clip_two_points.ron"), 30);
    check(s.load_error === null, "File > Open's picker opens the scene", s.title);

    // Save downloads it, under its name, as the text Save writes.
    const [download] = await Promise.all([
        page.waitForEvent("download", { timeout: 60000 }),
        page.keyboard.press("Control+s"),
    ]);
    const saved = fs.readFileSync(await download.path(), "utf8");
    check(download.suggestedFilename() === "clip_two_points.ron", "Ctrl+S downloads the scene",
        download.suggestedFilename());
    check(saved.includes("bodies:") && saved.includes("version: 1"), "as scene text", `${saved.length} bytes`);

    // The Screenshot downloads a PNG of the window.
    const [shot] = await Promise.all([
        page.waitForEvent("download", { timeout: 60000 }),
        fileMenu(page, "menu:screenshot"),
    ]);
    const png = fs.readFileSync(await shot.path());
    const picture = decodePng(png);
    check(shot.suggestedFilename().endsWith(".png") && picture.width > 600,
        "File > Screenshot downloads a PNG", `${shot.suggestedFilename()}, ${picture.width}x${picture.height}`);

    // A bad scene through the picker: its error, the scene before it kept.
    const bad = path.join(shots, "bad.ron");
    fs.writeFileSync(bad, "(version: 1, bodies: [(name: \"a\", shape: Box(half_extents: (1, 0))),])");
    const [again] = await Promise.all([
        page.waitForEvent("filechooser", { timeout: 60000 }),
        fileMenu(page, "menu:open"),
    ]);
    await again.setFiles(bad);
    s = await waitState(page, (x) => x.load_error !== null, 30);
    check(String(s.load_error).startsWith("bad.ron:1:"), "a bad scene from the picker shows its error",
        String(s.load_error).slice(0, 100));
    check(s.title.startsWith("clip_two_points.ron"), "and the scene before it stays", s.title);

    // A .ron dropped on the page opens.
    const dropped = fs.readFileSync(path.join(root, "scenes/welcome.ron"), "utf8");
    const transfer = await page.evaluateHandle((text) => {
        const t = new DataTransfer();
        t.items.add(new File([text], "dropped.ron", { type: "text/plain" }));
        return t;
    }, dropped);
    await page.dispatchEvent("#glcanvas", "drop", { dataTransfer: transfer });
    s = await waitState(page, (x) => x.title.startsWith("dropped.ron"), 30);
    check(s.bodies.length === 4, "a .ron dropped on the page opens", s.title);
    await page.close();
}

/** Clicks a widget the window notes for its tests, once the state stands still. */
async function clickWidget(page, name) {
    await waitState(page, (x) => x.widgets[name], 30);
    const s = await waitSettled(page);
    const [x, y] = await toPage(page, center(s.widgets[name]));
    await page.mouse.click(x, y);
}

async function scanWindow(browser, base) {
    const page = await open(browser, base);
    await clickWidget(page, "menu:view");
    await clickWidget(page, "menu:view:scan");
    // The View menu stays open after a checkbox; its button closes it again.
    await clickWidget(page, "menu:view");
    await waitState(page, (x) => !x.widgets["menu:view:scan"], 30);
    await clickWidget(page, "scan:go");
    let s = await waitState(page, (x) => x.scan.result && x.widgets["scan:event:0:after"], 60);
    const events = s.scan.result.events;
    check(s.scan.result.samples === 1000 && events.length === 6,
        "View > Scan scans the focused pair", `${events.length} events`);
    const quad = () => s.bodies.find((b) => b.name === "quad").position[0];
    const target = events[5].hi;
    await clickWidget(page, "scan:event:5:after");
    s = await waitState(page, (x) => Math.abs(x.bodies.find((b) => b.name === "quad").position[0] - target) < 1e-6, 30);
    check(Math.abs(quad() - target) < 1e-6, "go after moves the body across the flip", `x = ${quad()}`);
    await page.screenshot({ path: path.join(shots, "scan.png") });
    await page.close();
}

function center([x, y, w, h]) {
    return [x + w / 2, y + h / 2];
}

async function corruptedLinks(browser, base) {
    const welcome = fs.readFileSync(path.join(root, "scenes/welcome.ron"), "utf8");
    const good = nodeLink(base, welcome);
    const payload = good.split("#s1=")[1];
    const k = Math.floor(payload.length / 2);
    const flipped = good.split("#s1=")[0] + "#s1=" + payload.slice(0, k) +
        (payload[k] === "A" ? "B" : "A") + payload.slice(k + 1);
    const cases = [
        ["a flipped character", flipped, "share link"],
        ["a cut link", good.slice(0, good.length - 30), "share link"],
        ["characters no link holds", base + "#s1=%%%%", "share link"],
        ["an invalid scene", nodeLink(base, "(version: 1, bodies: [(name: \"a\", shape: Circle(radius: -1))])"), "share link:1:"],
    ];
    for (const [what, link, expected] of cases) {
        const page = await open(browser, link);
        const s = await waitState(page, (x) => x.load_error !== null, 30).catch(() => page.state);
        const error = String(s.load_error);
        check(error.includes(expected), `${what} shows an error`, error.slice(0, 120));
        check(s.title.includes("welcome") && s.bodies.length === 4, `and the welcome scene behind it`, s.title);
        if (what === "a flipped character") {
            await page.screenshot({ path: path.join(shots, "corrupt-link.png") });
        }
        await page.close();
    }
}

async function threeD(browser, base) {
    const text = fs.readFileSync(path.join(root, "scenes/3d/welcome.ron"), "utf8");
    const page = await open(browser, nodeLink(base, text));
    const s = await waitState(page, (x) => x.dimensions === 3, 30);
    check(s.load_error === null, "a 3D scene opens from a link", String(s.load_error));
    await page.waitForTimeout(500);
    const image = decodePng(await page.screenshot({ path: path.join(shots, "welcome-3d.png") }));
    // The canvas is not blank: a good share of it differs from the white background.
    const [ox, oy, w, h] = s.canvas;
    const [px, py] = await toPage(page, [ox + w / 2, oy + h / 2]);
    const white = countColour(image, px, py, 150, [255, 255, 255], 12);
    check(white < 300 * 300 * 0.9, "the 3D bodies are drawn", `${white} of ${300 * 300} pixels near the middle are white`);
    await page.close();
}

/// A teacher shares lesson 4 as a link: it opens on EPA's first step with its Notes, and
/// Next (in the Notes panel) opens lesson 5, compiled into the page like the examples.
async function lesson(browser, base) {
    const text = fs.readFileSync(path.join(root, "scenes/lessons/04_epa.ron"), "utf8");
    const page = await open(browser, nodeLink(base, text));
    const s = await waitState(page, (x) => x.lesson && x.lesson.number === 4 && x.widgets && x.widgets["lesson:next"], 30);
    check(s.load_error === null, "a lesson opens from a link", String(s.load_error));
    check(s.timeline_step && s.timeline_step.algorithm === "epa" && s.timeline_step.step === 0,
        "on its step", JSON.stringify(s.timeline_step));
    await page.screenshot({ path: path.join(shots, "lesson-4.png") });
    const [x, y, w, h] = s.widgets["lesson:next"];
    const [px, py] = await toPage(page, [x + w / 2, y + h / 2]);
    await page.mouse.click(px, py);
    const next = await waitState(page, (x) => x.lesson && x.lesson.number === 5, 30);
    check(next.timeline_step && next.timeline_step.algorithm === "sat", "Next opens lesson 5", next.title);
    await page.close();
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
