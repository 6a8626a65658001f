// Opening an invitation in a browser takes the seat at once (a link preview robot runs no script).
const form = document.getElementById("join-form");
if (form) form.requestSubmit();
