// Owner pages: a slug suggested from the title, cards reordered by dragging their grip, images
// uploaded by file picker or drag-and-drop, and import files read into the paste box. Every
// form works without this script (Up/Down buttons, a field of image addresses, the paste box).

/** A slug from a title: lower case ASCII letters and digits joined by single dashes, ≤ 64. */
export function slugFrom(title) {
  const plain = title.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  const dashed = plain.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return dashed.replace(/^-+|-+$/g, "").slice(0, 64).replace(/-+$/, "");
}

/** The index a dragged row lands at: the number of other rows whose middle is above `y`. */
export function dropIndex(middles, y) {
  let index = 0;
  for (const middle of middles) {
    if (middle < y) {
      index += 1;
    }
  }
  return index;
}

function suggestSlug(form) {
  const title = form.querySelector("#title");
  const slug = form.querySelector("#slug");
  if (!title || !slug) {
    return;
  }
  let edited = slug.value !== "";
  slug.addEventListener("input", () => {
    edited = true;
  });
  function suggest() {
    if (!edited) {
      slug.value = slugFrom(title.value);
    }
  }
  title.addEventListener("input", suggest);
  // A title typed before this module ran (a slow phone) gets its suggestion too.
  if (title.value !== "") {
    suggest();
  }
}

function createReorder(list, deck, status) {
  let dragged = null;
  let startY = 0;
  let middles = [];
  function rows() {
    return Array.from(list.querySelectorAll(".card-row"));
  }
  list.addEventListener("pointerdown", (event) => {
    const grip = event.target.closest(".grip");
    if (!grip || event.button !== 0) {
      return;
    }
    dragged = grip.closest(".card-row");
    startY = event.clientY;
    // Measured once per drag, never in the move handler.
    middles = rows().filter((row) => row !== dragged).map((row) => {
      const box = row.getBoundingClientRect();
      return box.top + box.height / 2;
    });
    dragged.classList.add("dragging");
    grip.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  list.addEventListener("pointermove", (event) => {
    if (dragged) {
      dragged.style.transform = `translateY(${event.clientY - startY}px)`;
    }
  });
  async function drop(event) {
    if (!dragged) {
      return;
    }
    const row = dragged;
    dragged = null;
    row.classList.remove("dragging");
    row.style.transform = "";
    const others = rows().filter((other) => other !== row);
    const index = dropIndex(middles, event.clientY);
    const before = others[index] || null;
    list.insertBefore(row, before);
    const response = await fetch(`/api/v1/decks/${deck}/cards/${row.dataset.card}/move`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ index: index }),
    }).catch(() => null);
    if (response && response.ok) {
      status.textContent = "Order saved.";
      location.reload();
    } else {
      status.textContent = "The new order was not saved; use the ↑ ↓ buttons.";
    }
  }
  list.addEventListener("pointerup", drop);
  list.addEventListener("pointercancel", drop);
}

/** The image list of a textarea holding one image per line, with `url` added at its end. */
export function withImageAdded(text, url) {
  const lines = text.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  lines.push(url);
  return lines.join("\n");
}

/** Uploads one file; resolves to its URL, or null after saying in the zone's status why not. */
async function uploadImage(file, zone) {
  const status = zone.querySelector(".upload-status");
  status.textContent = `Uploading ${file.name}…`;
  const response = await fetch("/api/v1/images", {
    method: "POST",
    headers: { "Content-Type": file.type || "application/octet-stream" },
    body: file,
  }).catch(() => null);
  if (!response) {
    status.textContent = `${file.name}: the upload failed, no connection to the server.`;
    return null;
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const reason = answer.error ? answer.error.message : `the upload failed (${response.status}).`;
    status.textContent = `${file.name}: ${reason}`;
    return null;
  }
  status.textContent = `Uploaded ${file.name}: ${answer.width} × ${answer.height} px.`;
  return answer.url;
}

/** Uploads `files` one after another, adding each URL to the field's list and a thumbnail. */
async function uploadImages(files, field, zone) {
  const previews = zone.querySelector(".previews");
  for (const file of files) {
    const url = await uploadImage(file, zone);
    if (!url) {
      return;
    }
    field.value = withImageAdded(field.value, url);
    const preview = document.createElement("img");
    preview.className = "preview";
    preview.alt = "";
    preview.src = url;
    previews.append(preview);
  }
}

function createUpload(zone) {
  const field = document.querySelector(zone.dataset.upload);
  const picker = zone.querySelector("input[type=file]");
  zone.hidden = false;
  picker.addEventListener("change", () => {
    if (picker.files.length > 0) {
      uploadImages([...picker.files], field, zone);
    }
  });
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => {
    zone.classList.remove("over");
  });
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    if (event.dataTransfer.files.length > 0) {
      uploadImages([...event.dataTransfer.files], field, zone);
    }
  });
}

function fillFromFile(input) {
  const target = document.querySelector(input.dataset.fill);
  input.addEventListener("change", async () => {
    if (input.files.length > 0) {
      target.value = await input.files[0].text();
    }
  });
}

function createOwnerPage(root) {
  for (const form of root.querySelectorAll("[data-suggest-slug]")) {
    suggestSlug(form);
  }
  const editor = root.querySelector(".owner-deck[data-deck]");
  const list = root.querySelector("[data-reorder]");
  if (editor && list) {
    createReorder(list, editor.dataset.deck, root.querySelector(".reorder-status"));
  }
  for (const zone of root.querySelectorAll("[data-upload]")) {
    createUpload(zone);
  }
  for (const input of root.querySelectorAll("input[data-fill]")) {
    fillFromFile(input);
  }
}

if (typeof document !== "undefined") {
  createOwnerPage(document);
}
