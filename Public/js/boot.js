// Marks the page as scripted so CSS can use JS-only affordances.
document.documentElement.classList.replace('no-js', 'js');
