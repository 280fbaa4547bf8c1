// collision-lab's page functions, registered with macroquad's loader (mq_js_bundle.js) as
// a miniquad plugin. The Rust side (src/app/platform/web.rs) declares each one in its
// `extern "C"` block; strings and bytes cross as pointers and lengths into the module's
// memory, and Rust polls for what the page has (a picked file), so nothing calls into Rust.
"use strict";

(function () {
    // The file picked with the page's picker: { name, bytes } once read, null before.
    let picked = null;
    // The fragment the page was opened with, read once at load (before anything changes it).
    const startFragment = window.location.hash.replace(/^#/, "");
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();

    function bytesAt(ptr, len) {
        return new Uint8Array(wasm_memory.buffer, ptr, len);
    }
    function textAt(ptr, len) {
        return decoder.decode(bytesAt(ptr, len));
    }
    function writeTo(ptr, bytes) {
        bytesAt(ptr, bytes.length).set(bytes);
    }
    function pageAddress() {
        return window.location.href.split("#")[0];
    }

    function pickFile() {
        picked = null;
        const input = document.createElement("input");
        input.type = "file";
        input.accept = ".ron";
        input.style.display = "none";
        // `cancel` is sent when the picker closes without a file (Chromium 113+, Firefox 91+).
        input.addEventListener("cancel", function () {
            picked = { name: "", bytes: new Uint8Array(0) };
            input.remove();
        });
        input.addEventListener("change", function () {
            const file = input.files && input.files[0];
            input.remove();
            if (!file) {
                picked = { name: "", bytes: new Uint8Array(0) };
                return;
            }
            file.arrayBuffer().then(function (buffer) {
                picked = { name: file.name, bytes: new Uint8Array(buffer) };
            });
        });
        document.body.appendChild(input);
        input.click();
    }

    function download(name, bytes, mime) {
        const url = URL.createObjectURL(new Blob([bytes], { type: mime }));
        const a = document.createElement("a");
        a.href = url;
        a.download = name;
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
    }

    function register(importObject) {
        const env = importObject.env;
        env.cl_pick_file = pickFile;
        env.cl_picked_size = function () {
            return picked === null ? -1 : picked.bytes.length;
        };
        env.cl_picked_name_size = function () {
            return picked === null ? 0 : encoder.encode(picked.name).length;
        };
        env.cl_picked_take = function (namePtr, bytesPtr) {
            if (picked === null) return;
            writeTo(namePtr, encoder.encode(picked.name));
            writeTo(bytesPtr, picked.bytes);
            picked = null;
        };
        env.cl_download = function (namePtr, nameLen, bytesPtr, bytesLen, mimePtr, mimeLen) {
            // Copy out of the module's memory before it can move.
            const bytes = bytesAt(bytesPtr, bytesLen).slice();
            download(textAt(namePtr, nameLen), bytes, textAt(mimePtr, mimeLen));
        };
        env.cl_page_address_size = function () {
            return encoder.encode(pageAddress()).length;
        };
        env.cl_page_address_read = function (ptr) {
            writeTo(ptr, encoder.encode(pageAddress()));
        };
        env.cl_start_fragment_size = function () {
            return encoder.encode(startFragment).length;
        };
        env.cl_start_fragment_read = function (ptr) {
            writeTo(ptr, encoder.encode(startFragment));
        };
        env.cl_show_fragment = function (ptr, len) {
            // Replace the entry: Back leaves the page rather than stepping through edits.
            window.history.replaceState(null, "", pageAddress() + "#" + textAt(ptr, len));
        };
        env.cl_copy_text = function (ptr, len) {
            const text = textAt(ptr, len);
            if (navigator.clipboard && navigator.clipboard.writeText) {
                navigator.clipboard.writeText(text).catch(function (e) {
                    console.warn("collision-lab: the clipboard refused the link:", e);
                });
            }
            window.collisionLabCopied = text;
        };
        env.cl_set_title = function (ptr, len) {
            document.title = textAt(ptr, len);
        };
        env.cl_publish_state = function (ptr, len) {
            // The state changes with every frame that shows something new (a drag moves a
            // body each frame), so the count of publications measures frames while dragging.
            window.collisionLabState = textAt(ptr, len);
            window.collisionLabStates = (window.collisionLabStates || 0) + 1;
            if (window.collisionLabFirstState === undefined) {
                window.collisionLabFirstState = performance.now();
            }
        };
        env.cl_test_mode = function () {
            return new URLSearchParams(window.location.search).has("test") ? 1 : 0;
        };
    }

    // The window's command keys (Ctrl+S save, Ctrl+O open, Ctrl+Z undo, ...) are also the
    // browser's (save the page, open a file): keep the browser's for itself. The event still
    // reaches miniquad's own handler, which passes it to the app.
    const COMMAND_KEYS = ["KeyS", "KeyO", "KeyZ", "KeyY", "KeyD", "KeyA", "KeyE", "KeyP"];
    function keepCommandKeys(e) {
        if ((e.ctrlKey || e.metaKey) && COMMAND_KEYS.includes(e.code)) {
            e.preventDefault();
        }
    }
    window.addEventListener("load", function () {
        const canvas = document.getElementById("glcanvas");
        if (canvas) canvas.addEventListener("keydown", keepCommandKeys, true);
    });

    miniquad_add_plugin({ register_plugin: register, name: "collision_lab", version: 1 });
})();
