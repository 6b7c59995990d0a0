// Owner pages: a slug suggested from the title, cards reordered by dragging their grip (saved
// without a reload), a card's images edited as thumbnails (upload, remove, reorder), and import
// files read into the paste box. Every form works without this script (Up/Down buttons, a field
// of image addresses, the paste box).
import { rooted } from './root.js';

/** A slug from a title: lower case ASCII letters and digits joined by single dashes, ≤ 64. */
export function slugFrom(title) {
  const plain = title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const dashed = plain.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return dashed.replace(/^-+|-+$/g, '').slice(0, 64).replace(/-+$/, '');
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

/**
 * `order` (card ids in deck order) with `id` moved to `index`, as the store's `moveCard` does it
 * (both engines): removed, then inserted at `index` clamped to the rest.
 */
export function movedOrder(order, id, index) {
  const rest = order.filter((other) => other !== id);
  const to = Math.max(0, Math.min(index, rest.length));
  rest.splice(to, 0, id);
  return rest;
}

/**
 * The deck-order index for `moveCard` that puts `id` before the active card `before`
 * (or after the active card `after` when it goes last): archived cards, listed apart, keep
 * their places in `order`.
 */
export function deckIndex(order, id, before, after) {
  const rest = order.filter((other) => other !== id);
  if (before !== null) {
    return rest.indexOf(before);
  }
  if (after !== null) {
    return rest.indexOf(after) + 1;
  }
  return 0;
}

function suggestSlug(form) {
  const title = form.querySelector('#title');
  const slug = form.querySelector('#slug');
  if (!title || !slug) {
    return;
  }
  let edited = slug.value !== '';
  slug.addEventListener('input', () => {
    edited = true;
  });
  function suggest() {
    if (!edited) {
      slug.value = slugFrom(title.value);
    }
  }
  title.addEventListener('input', suggest);
  // A title typed before this module ran (a slow phone) gets its suggestion too.
  if (title.value !== '') {
    suggest();
  }
}

/** Renumbers the active rows and enables the ↑ ↓ buttons of all but the first and last. */
function renumber(rows) {
  rows.forEach((row, index) => {
    row.querySelector('.num').textContent = String(index + 1);
    row.querySelector('.move-up').disabled = index === 0;
    row.querySelector('.move-down').disabled = index === rows.length - 1;
  });
}

function createReorder(list, deck, status) {
  let dragged = null;
  let startY = 0;
  let middles = [];
  let others = [];
  let height = 0;
  let index = 0;
  let from = 0;
  let order = list.dataset.order.split(',').filter((id) => id !== '');
  function rows() {
    return Array.from(list.querySelectorAll('.card-row'));
  }
  list.addEventListener('pointerdown', (event) => {
    const grip = event.target.closest('.grip');
    if (!grip || event.button !== 0) {
      return;
    }
    dragged = grip.closest('.card-row');
    startY = event.clientY;
    const all = rows();
    from = all.indexOf(dragged);
    index = from;
    others = all.filter((row) => row !== dragged);
    // Measured once per drag, never in the move handler.
    middles = others.map((row) => {
      const box = row.getBoundingClientRect();
      return box.top + box.height / 2;
    });
    const style = getComputedStyle(dragged);
    height = dragged.getBoundingClientRect().height + parseFloat(style.marginTop);
    dragged.classList.add('dragging');
    list.classList.add('reordering');
    grip.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  list.addEventListener('pointermove', (event) => {
    if (!dragged) {
      return;
    }
    dragged.style.transform = `translateY(${event.clientY - startY}px)`;
    index = dropIndex(middles, event.clientY);
    // The rows between the card's old place and its new one step aside: a gap where it lands.
    others.forEach((row, at) => {
      let shift = 0;
      if (at >= index && at < from) {
        shift = height;
      } else if (at < index && at >= from) {
        shift = -height;
      }
      row.style.transform = shift === 0 ? '' : `translateY(${shift}px)`;
      row.classList.toggle('making-room', shift !== 0);
    });
  });
  async function drop() {
    if (!dragged) {
      return;
    }
    const row = dragged;
    dragged = null;
    list.classList.remove('reordering');
    row.classList.remove('dragging');
    for (const other of rows()) {
      other.style.transform = '';
      other.classList.remove('making-room');
    }
    if (index === from) {
      return;
    }
    const before = others[index] || null;
    const after = others[index - 1] || null;
    const target = deckIndex(order, row.dataset.card,
      before ? before.dataset.card : null, after ? after.dataset.card : null);
    list.insertBefore(row, before);
    renumber(rows());
    status.textContent = 'Saving the new order…';
    const response = await fetch(rooted(`/api/v1/decks/${deck}/cards/${row.dataset.card}/move`), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ index: target }),
    }).catch(() => null);
    if (response && response.ok) {
      order = movedOrder(order, row.dataset.card, target);
      const title = row.querySelector('.card-text b').textContent;
      status.textContent = `Order saved: “${title}” is card ${index + 1}.`;
    } else {
      // Put the row back where the server still has it.
      list.insertBefore(row, rows().filter((other) => other !== row)[from] || null);
      renumber(rows());
      status.textContent = 'The new order was not saved; try again, or use the ↑ ↓ buttons.';
    }
  }
  list.addEventListener('pointerup', drop);
  list.addEventListener('pointercancel', drop);
}

/** The image addresses of the textarea's text, one per line, blank lines dropped. */
export function imageLines(text) {
  return text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
}

/** `list` with the entry at `from` moved to `to` (both in range). */
export function movedItem(list, from, to) {
  const copy = list.slice();
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item);
  return copy;
}

/** Largest image the server takes, bytes (ImagesController's default limit: 8 MiB). */
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

/** Why the server refused an upload, in a sentence for the owner. */
export function refusalReason(status, answer) {
  if (status === 413) {
    return `That image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`;
  }
  if (status === 401) {
    return 'You were signed out: sign in again in another tab, then choose the file again.';
  }
  if (answer && answer.error && answer.error.message) {
    return answer.error.message;
  }
  return `The server refused it (${status}).`;
}

/** Uploads `file` with progress; resolves to {url} or {reason}. */
function send(file, onProgress) {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', rooted('/api/v1/images'));
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) {
        onProgress(event.loaded / event.total);
      }
    });
    request.addEventListener('load', () => {
      let answer = null;
      try {
        answer = JSON.parse(request.responseText);
      } catch {
        // Not JSON (a proxy's error page): the status alone says what happened.
        answer = null;
      }
      if (request.status === 200 || request.status === 201) {
        resolve({ url: answer.url });
      } else {
        resolve({ reason: refusalReason(request.status, answer) });
      }
    });
    request.addEventListener('error', () => {
      resolve({ reason: 'The connection to the server was lost; choose the file again.' });
    });
    request.send(file);
  });
}

function createImageEditor(editor) {
  const field = document.querySelector(editor.dataset.upload);
  const form = field.closest('form');
  const thumbs = editor.querySelector('.thumbs');
  const picker = editor.querySelector('input[type=file]');
  const zone = editor.querySelector('.drop-zone');
  const uploads = editor.querySelector('.upload-list');
  const submits = Array.from(form.querySelectorAll('button[type=submit]'));
  let images = imageLines(field.value);
  let pending = 0;
  field.hidden = true;
  editor.hidden = false;
  for (const hint of form.querySelectorAll('.no-js-hint')) {
    hint.hidden = true;
  }

  function button(label, text, action) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'icon';
    b.textContent = text;
    b.setAttribute('aria-label', label);
    b.addEventListener('click', action);
    return b;
  }

  function render() {
    field.value = images.join('\n');
    thumbs.replaceChildren(...images.map((url, at) => {
      const item = document.createElement('li');
      item.className = 'thumb-item';
      item.dataset.url = url;
      const img = document.createElement('img');
      img.src = rooted(url);
      img.alt = `Image ${at + 1}`;
      item.append(img);
      if (at === 0) {
        const cover = document.createElement('span');
        cover.className = 'cover';
        cover.textContent = 'Cover';
        item.append(cover);
      }
      const tools = document.createElement('span');
      tools.className = 'thumb-tools';
      const left = button(`Move image ${at + 1} earlier`, '←', () => {
        images = movedItem(images, at, at - 1);
        render();
      });
      left.disabled = at === 0;
      const right = button(`Move image ${at + 1} later`, '→', () => {
        images = movedItem(images, at, at + 1);
        render();
      });
      right.disabled = at === images.length - 1;
      const remove = button(`Remove image ${at + 1}`, '×', () => {
        images = images.filter((_, other) => other !== at);
        render();
      });
      tools.append(left, right, remove);
      item.append(tools);
      return item;
    }));
  }

  function setBusy() {
    for (const submit of submits) {
      submit.disabled = pending > 0;
    }
    form.toggleAttribute('aria-busy', pending > 0);
  }

  async function upload(file) {
    const line = document.createElement('li');
    const name = document.createElement('span');
    name.textContent = file.name;
    const bar = document.createElement('progress');
    bar.max = 1;
    bar.value = 0;
    const said = document.createElement('span');
    said.className = 'said';
    said.textContent = 'waiting…';
    line.append(name, bar, said);
    uploads.append(line);
    if (file.size > MAX_IMAGE_BYTES) {
      return { line, said, bar, result: { reason: refusalReason(413, null) } };
    }
    said.textContent = 'uploading…';
    const result = await send(file, (share) => {
      bar.value = share;
      said.textContent = `${Math.round(share * 100)} %`;
    });
    return { line, said, bar, result };
  }

  // Files upload one after another; each gets its own line, uploaded or refused with the reason.
  async function uploadAll(files) {
    pending += files.length;
    setBusy();
    for (const file of files) {
      const { line, said, bar, result } = await upload(file);
      bar.remove();
      if (result.url) {
        line.className = 'ok';
        said.textContent = 'uploaded';
        images.push(result.url);
        render();
      } else {
        line.className = 'bad';
        said.textContent = `not added: ${result.reason}`;
      }
      pending -= 1;
      setBusy();
    }
  }

  form.addEventListener('submit', (event) => {
    // Enter in a field submits too: never save a card without the image still on its way.
    if (pending > 0) {
      event.preventDefault();
    }
  });
  picker.addEventListener('change', () => {
    if (picker.files.length > 0) {
      uploadAll([...picker.files]);
      picker.value = '';
    }
  });
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => {
    zone.classList.remove('over');
  });
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    if (event.dataTransfer.files.length > 0) {
      uploadAll([...event.dataTransfer.files]);
    }
  });
  render();
}

function fillFromFile(input) {
  const target = document.querySelector(input.dataset.fill);
  input.addEventListener('change', async () => {
    if (input.files.length > 0) {
      target.value = await input.files[0].text();
    }
  });
}

function createOwnerPage(root) {
  for (const form of root.querySelectorAll('[data-suggest-slug]')) {
    suggestSlug(form);
  }
  const editor = root.querySelector('.owner-deck[data-deck]');
  const list = root.querySelector('[data-reorder]');
  if (editor && list) {
    createReorder(list, editor.dataset.deck, root.querySelector('.reorder-status'));
  }
  for (const images of root.querySelectorAll('[data-upload]')) {
    createImageEditor(images);
  }
  for (const input of root.querySelectorAll('input[data-fill]')) {
    fillFromFile(input);
  }
}

if (typeof document !== 'undefined') {
  createOwnerPage(document);
}
